// Times what a person waits for where it is drawn: in the workbench page itself. The moment of the action is the
// `timeStamp` of its first input event (pointerdown, mousedown or keydown) as the page received it; the moment it is
// drawn is the first animation frame whose DOM holds what the person waits for (a check run on every frame, before
// that frame is painted). Both are read on the page's own clock (`performance.now()`), so the time Playwright takes
// to send the action and to learn the result is not in the figure.
import type { Page } from 'playwright-core';

/** What the person waits for, read from the workbench's DOM (VS Code's own classes, as test/e2e/workbench.ts reads them). */
export type Drawn =
  /** Rows of a view's tree: `rows` each drawn with its description; or at `level` a row drawn whose siblings number at least `setSizeAtLeast`; or one of `anyLabel`. */
  | { kind: 'rows'; view: string; rows?: { label: string; description: string }[]; level?: number; setSizeAtLeast?: number; anyLabel?: string[] }
  /** The active editor, its tab's label starting with `tab`, shows this text in its visible lines. */
  | { kind: 'editor'; tab: string; text: string }
  /** A notification toast whose message starts with this. */
  | { kind: 'toast'; startsWith: string }
  /** The quick input shown, its box's value starting with this. */
  | { kind: 'quickInput'; valueStartsWith: string };

/** One wait, on the page's clock; and when its action was, on the machine's clock (epoch ms), to place requests by. */
export interface Wait {
  ms: number;
  actionEpochMs: number;
}

// The page's globals, as far as the probe uses them (the bench compiles without the DOM library).
interface El {
  textContent: string | null;
  innerText: string;
  value?: string;
  getAttribute(name: string): string | null;
  querySelector(selector: string): El | null;
  querySelectorAll(selector: string): ArrayLike<El>;
  getClientRects(): ArrayLike<unknown>;
}
interface ProbeState {
  armed: boolean;
  actionAt?: number;
  drawnAt?: number;
  check?: () => boolean;
  drawn(spec: Drawn): boolean;
}
interface PageGlobals {
  document: El;
  performance: { now(): number; timeOrigin: number };
  requestAnimationFrame(callback: () => void): void;
  addEventListener(type: string, listener: (e: { timeStamp: number }) => void, options: { capture: boolean }): void;
  __sbWaits?: ProbeState;
}

/** Installed once in the page (self-contained: Playwright sends its source). */
function installProbe(): void {
  const page = globalThis as unknown as PageGlobals;
  if (page.__sbWaits) return;
  const visible = (el: El) => el.getClientRects().length > 0;
  const text = (el: El | null) => (el?.textContent ?? '').replace(/\u00a0/g, ' ').trim();
  const pane = (view: string) => Array.from(page.document.querySelectorAll('.part.sidebar .pane')).find((p) => text(p.querySelector('.pane-header .title, .pane-header h3')) === view || text(p.querySelector('.pane-header')).startsWith(view));
  const drawn = (spec: Drawn): boolean => {
    if (spec.kind === 'rows') {
      const body = pane(spec.view);
      if (!body) return false;
      const rows = Array.from(body.querySelectorAll('.monaco-list-row[role="treeitem"]')).filter(visible).map((row) => ({
        label: text(row.querySelector('.label-name')) || text(row.querySelector('.monaco-highlighted-label')),
        description: text(row.querySelector('.label-description')),
        level: Number(row.getAttribute('aria-level') ?? '1'),
        setSize: Number(row.getAttribute('aria-setsize') ?? '0'),
      }));
      if (spec.rows && !spec.rows.every((want) => rows.some((r) => r.label === want.label && r.description === want.description))) return false;
      if (spec.level !== undefined && !rows.some((r) => r.level === spec.level && r.setSize >= (spec.setSizeAtLeast ?? 1))) return false;
      if (spec.anyLabel && !rows.some((r) => spec.anyLabel!.includes(r.label))) return false;
      return true;
    }
    if (spec.kind === 'editor') {
      const group = page.document.querySelector('.part.editor .editor-group-container.active');
      const lines = group?.querySelector('.editor-instance .view-lines');
      return text(group?.querySelector('.tab.active .label-name') ?? null).startsWith(spec.tab) && !!lines && lines.innerText.replace(/\u00a0/g, ' ').includes(spec.text);
    }
    if (spec.kind === 'toast') {
      return Array.from(page.document.querySelectorAll('.notifications-toasts .notification-list-item-message')).some((m) => visible(m) && text(m).startsWith(spec.startsWith));
    }
    const widget = page.document.querySelector('.quick-input-widget');
    const box = widget?.querySelector('.quick-input-box input');
    return !!widget && visible(widget) && !!box && (box.value ?? '').startsWith(spec.valueStartsWith);
  };
  const state: ProbeState = { armed: false, drawn };
  const onInput = (e: { timeStamp: number }) => {
    if (state.armed && state.actionAt === undefined) state.actionAt = e.timeStamp;
  };
  for (const type of ['pointerdown', 'mousedown', 'keydown']) page.addEventListener(type, onInput, { capture: true });
  const frame = () => {
    if (state.armed && state.actionAt !== undefined && state.drawnAt === undefined && state.check?.()) state.drawnAt = page.performance.now();
    page.requestAnimationFrame(frame);
  };
  page.requestAnimationFrame(frame);
  page.__sbWaits = state;
}

function arm(spec: Drawn): string | undefined {
  const state = (globalThis as unknown as PageGlobals).__sbWaits!;
  if (state.drawn(spec)) return 'what is waited for is drawn already, before the action';
  state.actionAt = undefined;
  state.drawnAt = undefined;
  state.check = () => state.drawn(spec);
  state.armed = true;
  return undefined;
}

function settled(): { actionAt?: number; drawnAt?: number; timeOrigin: number } | undefined {
  const page = globalThis as unknown as PageGlobals;
  const state = page.__sbWaits!;
  if (state.drawnAt === undefined) return undefined;
  state.armed = false;
  return { actionAt: state.actionAt, drawnAt: state.drawnAt, timeOrigin: page.performance.timeOrigin };
}

function disarm(): void {
  const state = (globalThis as unknown as PageGlobals).__sbWaits;
  if (state) state.armed = false;
}

/** Whether `spec` is drawn now (a check between runs, on the same reading as the timing's). */
export async function isDrawn(page: Page, spec: Drawn): Promise<boolean> {
  await page.evaluate(installProbe);
  return page.evaluate((s) => (globalThis as unknown as PageGlobals).__sbWaits!.drawn(s), spec);
}

/**
 * Runs `action` (a click, a key) and times it until `spec` is drawn: from the action's first input event to the first
 * frame that holds it. Throws when it is drawn before the action, when the action sent no input event, or after
 * `timeoutMs`.
 */
export async function timeWait(page: Page, spec: Drawn, action: () => Promise<void>, timeoutMs: number): Promise<Wait> {
  await page.evaluate(installProbe);
  const refused = await page.evaluate(arm, spec);
  if (refused) throw new Error(`${describe(spec)}: ${refused}`);
  try {
    await action();
    const handle = await page.waitForFunction(settled, undefined, { timeout: timeoutMs, polling: 100 });
    const { actionAt, drawnAt, timeOrigin } = (await handle.jsonValue())!;
    if (actionAt === undefined) throw new Error(`${describe(spec)}: the action reached the page as no click or key`);
    return { ms: drawnAt! - actionAt, actionEpochMs: timeOrigin + actionAt };
  } finally {
    await page.evaluate(disarm).catch(() => undefined);
  }
}

export function describe(spec: Drawn): string {
  switch (spec.kind) {
    case 'rows':
      return `rows of ${spec.view}`;
    case 'editor':
      return `"${spec.text}" in the editor`;
    case 'toast':
      return `the notification "${spec.startsWith}…"`;
    case 'quickInput':
      return `the quick input at ${spec.valueStartsWith}`;
  }
}
