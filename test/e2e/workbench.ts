/**
 * Playwright helpers that drive the VS Code workbench the way a person does: activity bar, command
 * palette, quick inputs, tree views, status bar, notifications, screenshots. Selectors are VS Code's own
 * (checked against 1.139); keep them here so specs read as steps.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Locator, Page } from 'playwright-core';
import { screenshotsDir } from '../harness/paths';

export interface TreeItem {
  label: string;
  description: string;
  /** 1 = top level. */
  level: number;
  /** undefined for leaves. */
  expanded: boolean | undefined;
  /** The row's aria-label (label, description and tooltip as VS Code reads them out). */
  ariaLabel: string;
  selected: boolean;
  /** The row the keyboard is on. */
  focused: boolean;
  /** How many rows its parent holds, and where it is among them (1 first), as a screen reader says it. */
  setSize: number;
  position: number;
}

export interface StatusBarItem {
  id: string;
  text: string;
  ariaLabel: string;
}

/** A text as a regular expression that matches it literally. */
export const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class Workbench {
  constructor(readonly page: Page, readonly defaultTimeoutMs = 15_000) {
    page.setDefaultTimeout(defaultTimeoutMs);
  }

  /** Waits until the workbench is rendered and its extensions are known (the activity bar has our icon). */
  async waitReady(activityBarTitle = 'Seven Bridges', timeoutMs = 60_000): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ timeout: timeoutMs });
    await this.activityBarItem(activityBarTitle).waitFor({ timeout: timeoutMs });
  }

  // ---------- activity bar and views ----------

  activityBarItem(title: string): Locator {
    return this.page.locator(`.part.activitybar .action-item[aria-label^="${title}"], .part.activitybar .action-item:has(a[aria-label^="${title}"])`).first();
  }

  /** Opens a view container from the activity bar (clicks its icon unless it is open already). */
  async openViewContainer(title = 'Seven Bridges'): Promise<void> {
    const sideBarTitle = this.page.locator('.part.sidebar .composite.title');
    const current = (await sideBarTitle.textContent().catch(() => '')) ?? '';
    if (!(await this.page.locator('.part.sidebar').isVisible()) || !current.toLowerCase().includes(title.toLowerCase())) {
      await this.activityBarItem(title).click();
    }
    await this.page.locator('.part.sidebar .composite.title', { hasText: new RegExp(escape(title), 'i') }).waitFor();
  }

  /** A view's pane in the side bar, by its name ("Tasks", "Projects & Files"). */
  pane(viewName: string): Locator {
    return this.page.locator('.part.sidebar .pane').filter({ has: this.page.locator('.pane-header', { hasText: new RegExp(`^\\s*${escape(viewName)}`, 'i') }) });
  }

  /** Expands a collapsed view pane. */
  async expandPane(viewName: string): Promise<void> {
    await this.setPaneOpen(viewName, true);
  }

  /** Folds a view's pane (the Tasks pane, say, so that the pane below has the side bar's height). */
  async collapsePane(viewName: string): Promise<void> {
    await this.setPaneOpen(viewName, false);
  }

  /**
   * Opens or folds a pane by a click on its title: the header's middle is where its actions show on hover
   * (a click there ran the Tasks view's Filter Tasks… once New Task… widened its actions).
   */
  async setPaneOpen(viewName: string, open: boolean): Promise<void> {
    const header = this.pane(viewName).locator('.pane-header');
    if ((await header.getAttribute('aria-expanded')) !== String(open)) await header.locator('.title').first().click();
  }

  /** Opens `parent` in a view once it shows, and waits for `child` under it. */
  async openTreeItem(viewName: string, parent: string | RegExp, child: string | number | RegExp, timeoutMs = 20_000): Promise<void> {
    await this.waitForTreeItems(viewName, parent, timeoutMs);
    await this.expandTreeItem(viewName, parent);
    await this.waitForTreeItems(viewName, child, timeoutMs);
  }

  /** Buttons of a view's welcome content (e.g. "Set Authentication Token"), empty when the view shows data. */
  async welcomeButtons(viewName: string): Promise<string[]> {
    return (await this.pane(viewName).locator('.welcome-view .monaco-button').allInnerTexts()).map((t) => t.trim());
  }

  /** Clicks a button in a view's welcome content. */
  async clickWelcomeButton(viewName: string, label: string): Promise<void> {
    await this.pane(viewName).locator('.welcome-view .monaco-button', { hasText: label }).first().click();
  }

  /** Clicks a view's title-bar action (by its tooltip, e.g. "Filter Tasks…", "Refresh Tasks"). */
  async clickViewAction(viewName: string, title: string): Promise<void> {
    const pane = this.pane(viewName);
    await pane.locator('.pane-header').hover();
    await pane.locator(`.pane-header .actions .action-label[aria-label^="${title}"]`).first().click();
  }

  /** A view's title-bar actions, left to right, by their labels ("Filter Tasks…", "Refresh Tasks", "More Actions..."). */
  async viewActions(viewName: string): Promise<string[]> {
    const pane = this.pane(viewName);
    await pane.locator('.pane-header').hover();
    return (await pane.locator('.pane-header .actions .action-label').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''))).map((l) => l.trim());
  }

  /**
   * Collapses every node of a view's tree (its "Collapse All" title action), as a person does: VS Code disables the
   * action while no row is open, and then there is nothing to collapse (a person sees it greyed and leaves it).
   */
  async collapseAll(viewName: string): Promise<void> {
    const pane = this.pane(viewName);
    await pane.locator('.pane-header').hover();
    const action = pane.locator('.pane-header .actions .action-label[aria-label^="Collapse All"]').first();
    await action.waitFor();
    if ((await action.getAttribute('aria-disabled')) === 'true') return;
    await action.click();
  }

  /**
   * Puts the side bar back to a known state between specs (one workbench serves them all): the
   * container open, both panes expanded, every tree collapsed, no quick input, no toasts.
   */
  async resetViews(container = 'Seven Bridges', views: string[] = ['Tasks', 'Projects & Files']): Promise<void> {
    if (await this.quickInput().isVisible().catch(() => false)) await this.page.keyboard.press('Escape');
    await this.openViewContainer(container);
    for (const view of views) {
      await this.expandPane(view);
      if ((await this.treeRows(view).count()) > 0) await this.collapseAll(view).catch(() => undefined);
    }
    await this.page.locator('.notifications-toasts .notification-toast .codicon-notifications-clear, .notifications-toasts .codicon-close').first().click({ timeout: 500 }).catch(() => undefined);
  }

  // ---------- trees ----------

  /** Rows of a view's tree (only those rendered: VS Code virtualises long lists). */
  treeRows(viewName: string): Locator {
    return this.pane(viewName).locator('.monaco-list-row[role="treeitem"]');
  }

  /**
   * The rendered items of a view's tree, top to bottom. The copies of the open rows above the view that VS Code's
   * sticky scroll pins at its top are left out: each row is listed once, where it is.
   */
  async treeItems(viewName: string): Promise<TreeItem[]> {
    return this.treeRows(viewName).evaluateAll((rows) =>
      rows.filter((row) => !row.closest('.monaco-tree-sticky-container')).map((row) => {
        const text = (selector: string): string => (row.querySelector(selector)?.textContent ?? '').trim();
        const expanded = row.getAttribute('aria-expanded');
        return {
          label: text('.label-name') || text('.monaco-highlighted-label'),
          description: text('.label-description'),
          level: Number(row.getAttribute('aria-level') ?? '1'),
          expanded: expanded === null ? undefined : expanded === 'true',
          ariaLabel: row.getAttribute('aria-label') ?? '',
          selected: row.classList.contains('selected'),
          focused: row.classList.contains('focused'),
          setSize: Number(row.getAttribute('aria-setsize') ?? '0'),
          position: Number(row.getAttribute('aria-posinset') ?? '0'),
        };
      }),
    );
  }

  /** A row by its label (a string matches the start of the label; or a RegExp). */
  treeItem(viewName: string, label: string | RegExp): Locator {
    const re = typeof label === 'string' ? new RegExp(`^\\s*${escape(label)}`) : label;
    return this.treeRows(viewName).filter({ has: this.page.locator('.label-name, .monaco-highlighted-label', { hasText: re }) }).first();
  }

  /** Whether a row's label is shown whole in its pane (not cut by the side bar's edge), and the pane's width. */
  async wholeLabel(viewName: string, label: string | RegExp): Promise<{ whole: boolean; width: number; label: string }> {
    return this.treeItem(viewName, label).evaluate((row) => {
      const name = row.querySelector('.label-name');
      const box = row.querySelector('.monaco-icon-label-container') ?? row;
      if (!name) return { whole: false, width: 0, label: '' };
      return { whole: name.getBoundingClientRect().right <= box.getBoundingClientRect().right + 1, width: Math.round(row.getBoundingClientRect().width), label: name.textContent ?? '' };
    });
  }

  /** Waits until the view's tree shows at least `count` items (or one whose label matches). */
  async waitForTreeItems(viewName: string, match: number | string | RegExp = 1, timeoutMs = this.defaultTimeoutMs): Promise<TreeItem[]> {
    if (typeof match === 'number') {
      await this.treeRows(viewName).nth(match - 1).waitFor({ timeout: timeoutMs });
    } else {
      await this.treeItem(viewName, match).waitFor({ timeout: timeoutMs });
    }
    return this.treeItems(viewName);
  }

  /** Scrolls a view's tree (it renders only the rows in view) down, then up, until a row with this label is rendered. */
  async scrollToTreeItem(viewName: string, label: RegExp, maxSteps = 60): Promise<void> {
    // The row itself, not its copy pinned by the sticky scroll.
    const row = this.pane(viewName)
      .locator('.monaco-list-rows .monaco-list-row[role="treeitem"]')
      .filter({ has: this.page.locator('.label-name, .monaco-highlighted-label', { hasText: label }) })
      .first();
    const box = await this.pane(viewName).locator('.monaco-list').first().boundingBox();
    if (box) await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (const step of [300, -300]) {
      for (let i = 0; i < maxSteps && (await row.count()) === 0; i++) {
        await this.page.mouse.wheel(0, step);
        await this.page.waitForTimeout(80);
      }
    }
    await row.scrollIntoViewIfNeeded();
  }

  /** Expands a collapsed tree item (clicks its twistie) and waits for it to be expanded. */
  async expandTreeItem(viewName: string, label: string | RegExp): Promise<void> {
    const row = this.treeItem(viewName, label);
    // The locator, not an element handle: a refresh of the tree may render the row afresh while it expands. A
    // group that reopens on its own (it was open before a filter hid it) can be toggled shut by a click landing at
    // that moment: then the click is made again.
    for (let attempt = 1; ; attempt++) {
      if ((await row.getAttribute('aria-expanded').catch(() => null)) === 'true') return;
      await row.locator('.monaco-tl-twistie').click();
      const deadline = Date.now() + 3_000;
      while (Date.now() < deadline) {
        if ((await row.getAttribute('aria-expanded').catch(() => null)) === 'true') return;
        await this.page.waitForTimeout(100);
      }
      if (attempt >= 4) throw new Error(`the row ${String(label)} did not expand`);
    }
  }

  /** Clicks a tree item (selects it; ctrl/shift for multi-select). */
  async clickTreeItem(viewName: string, label: string | RegExp, modifiers: ('Control' | 'Shift')[] = []): Promise<void> {
    await this.treeItem(viewName, label).click({ modifiers });
  }

  /** Opens a tree item's context menu and runs the entry with this label. */
  async treeItemContextMenu(viewName: string, label: string | RegExp, entry: string): Promise<void> {
    await this.treeItem(viewName, label).click({ button: 'right' });
    await this.clickContextMenuEntry(entry);
  }

  /** Runs an entry of the open context menu: hovered, then Enter (a plain click can land while the menu animates). */
  async clickContextMenuEntry(entry: string): Promise<void> {
    const menu = this.page.locator('.monaco-menu-container .monaco-menu, .context-view .monaco-menu').first();
    await menu.waitFor();
    const item = menu.locator('.action-item', { has: this.page.locator('.action-label', { hasText: new RegExp(`^\\s*${escape(entry)}`) }) }).first();
    await item.hover();
    await this.page.keyboard.press('Enter');
    await menu.waitFor({ state: 'hidden' }).catch(() => undefined);
  }

  // ---------- command palette and quick input ----------

  quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /**
   * Waits for the quick input (palette, quick pick or input box) to be shown; with `title`, for one
   * whose title matches (a command's own box or pick opens a moment after the palette closes).
   */
  async waitForQuickInput(title?: string | RegExp, timeoutMs = this.defaultTimeoutMs): Promise<void> {
    await this.quickInput().waitFor({ state: 'visible', timeout: timeoutMs });
    if (title !== undefined) {
      const re = typeof title === 'string' ? new RegExp(escape(title)) : title;
      await this.quickInput().locator('.quick-input-title', { hasText: re }).waitFor({ state: 'visible', timeout: timeoutMs });
    }
  }

  /** Opens the command palette (F1), types the command's full label ("Seven Bridges: Refresh Tasks") and runs it. */
  async runCommand(label: string): Promise<void> {
    await this.page.locator('.monaco-workbench').focus().catch(() => undefined);
    await this.page.keyboard.press('F1');
    await this.waitForQuickInput();
    const input = this.quickInput().locator('.quick-input-box input');
    await input.fill(`>${label}`);
    await this.quickItem(label, true).click();
  }

  /** A row of the open quick pick by its label (exact with `exact`, else the label's start). */
  quickItem(label: string | RegExp, exact = false): Locator {
    const re = typeof label === 'string' ? new RegExp(`^\\s*${escape(label)}${exact ? '\\s*$' : ''}`) : label;
    return this.quickInput()
      .locator('.quick-input-list .monaco-list-row')
      .filter({ has: this.page.locator('.quick-input-list-label .label-name, .monaco-icon-label .label-name', { hasText: re }) })
      .first();
  }

  /** Labels of the quick pick's rendered rows (with their checked state for multi-selects). */
  async quickItems(): Promise<{ label: string; description: string; checked: boolean | undefined }[]> {
    return this.quickInput()
      .locator('.quick-input-list .monaco-list-row')
      .evaluateAll((rows) =>
        rows.map((row) => {
          const box = row.querySelector('input[type="checkbox"], .quick-input-list-checkbox, .monaco-checkbox') as unknown as { checked?: boolean; classList: { contains(c: string): boolean }; getAttribute(a: string): string | null } | null;
          const checked = box ? (typeof box.checked === 'boolean' ? box.checked : box.classList.contains('checked') || box.getAttribute('aria-checked') === 'true') : undefined;
          return {
            label: (row.querySelector('.label-name')?.textContent ?? '').trim(),
            description: (row.querySelector('.label-description')?.textContent ?? '').trim(),
            checked,
          };
        }),
      );
  }

  /** Clicks a quick-pick row (toggles it in a multi-select). */
  async pickQuickItem(label: string | RegExp, exact = false): Promise<void> {
    const row = this.quickItem(label, exact);
    await row.waitFor();
    // A list still being filled or redrawn can move rows under the pointer: click once two reads 100 ms apart agree.
    let before = '';
    for (let i = 0; i < 30; i++) {
      const now = JSON.stringify(await this.quickItems());
      if (now === before) break;
      before = now;
      await this.page.waitForTimeout(100);
    }
    const multi = await this.quickInput().locator('.quick-input-list .monaco-list-row').first().locator('input[type="checkbox"], .quick-input-list-checkbox, .monaco-checkbox').count();
    if (multi > 0) await row.locator('input[type="checkbox"], .quick-input-list-checkbox, .monaco-checkbox').first().click();
    else await row.click();
  }

  /** Types into the open quick input (replacing what is there); presses Enter when `submit`. */
  async typeInQuickInput(text: string, options: { submit?: boolean } = {}): Promise<void> {
    await this.waitForQuickInput();
    const input = this.quickInput().locator('.quick-input-box input');
    await input.fill(text);
    if (options.submit) await input.press('Enter');
  }

  /**
   * Types a local path into VS Code's own file dialog (a quick input in the browser) and takes it. The dialog sets
   * its value (the folder it opens on) once it has read that folder: the path is typed after, and again if the
   * dialog put its own back; Enter once it lists the file (else it takes the folder).
   */
  async chooseInFileDialog(filePath: string, folderShown: string): Promise<void> {
    await this.waitForQuickInput();
    for (let i = 0; i < 50 && !(await this.quickInputState()).value.startsWith(folderShown); i++) await this.page.waitForTimeout(100);
    for (let attempt = 0; attempt < 5 && (await this.quickInputState()).value !== filePath; attempt++) {
      await this.page.waitForTimeout(500);
      await this.typeInQuickInput(filePath);
    }
    await this.quickItem(filePath.slice(filePath.lastIndexOf('/') + 1)).waitFor({ timeout: 10_000 });
    const value = (await this.quickInputState()).value;
    if (value !== filePath) throw new Error(`the file dialog holds "${value}", not "${filePath}"`);
    await this.page.waitForTimeout(300);
    await this.quickInput().locator('.quick-input-box input').press('Enter');
  }

  /** Accepts the quick input (Enter; the OK button of a multi-select). */
  async acceptQuickInput(): Promise<void> {
    const ok = this.quickInput().locator('.quick-input-action .monaco-button', { hasText: /^OK$/ });
    if (await ok.isVisible().catch(() => false)) await ok.click();
    else await this.quickInput().locator('.quick-input-box input').press('Enter');
  }

  /** Title, prompt/validation message and placeholder of the open quick input. */
  async quickInputState(): Promise<{ visible: boolean; title: string; message: string; placeholder: string; value: string }> {
    const widget = this.quickInput();
    const visible = await widget.isVisible().catch(() => false);
    if (!visible) return { visible, title: '', message: '', placeholder: '', value: '' };
    const input = widget.locator('.quick-input-box input');
    return {
      visible,
      title: ((await widget.locator('.quick-input-title').textContent().catch(() => '')) ?? '').trim(),
      message: ((await widget.locator('.quick-input-message').textContent().catch(() => '')) ?? '').trim(),
      placeholder: (await input.getAttribute('placeholder')) ?? '',
      value: await input.inputValue(),
    };
  }

  /** Waits until the quick input is closed. */
  async waitForQuickInputClosed(timeoutMs = this.defaultTimeoutMs): Promise<void> {
    await this.quickInput().waitFor({ state: 'hidden', timeout: timeoutMs });
  }

  // ---------- status bar and notifications ----------

  /** The status bar's items, with their ids (`<extension id>.<item id>` for extension items). */
  async statusBarItems(): Promise<StatusBarItem[]> {
    return this.page.locator('.part.statusbar .statusbar-item').evaluateAll((items) =>
      items.map((el) => ({ id: el.id, text: ((el as unknown as { innerText: string }).innerText ?? '').trim(), ariaLabel: el.querySelector('[aria-label]')?.getAttribute('aria-label') ?? el.getAttribute('aria-label') ?? '' })),
    );
  }

  /** Waits for a status bar item whose text matches and returns its text. */
  async waitForStatusBarText(match: string | RegExp, timeoutMs = this.defaultTimeoutMs): Promise<string> {
    const re = typeof match === 'string' ? new RegExp(escape(match)) : match;
    const item = this.page.locator('.part.statusbar .statusbar-item', { hasText: re }).first();
    await item.waitFor({ timeout: timeoutMs });
    return (await item.innerText()).trim();
  }

  /** Messages of the notification toasts on screen. */
  async notifications(): Promise<string[]> {
    return (await this.page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts()).map((t) => t.trim());
  }

  /** Waits for a notification toast whose message matches and returns it. */
  async waitForNotification(match: string | RegExp, timeoutMs = this.defaultTimeoutMs): Promise<string> {
    const re = typeof match === 'string' ? new RegExp(escape(match)) : match;
    const toast = this.page.locator('.notifications-toasts .notification-list-item-message', { hasText: re }).first();
    await toast.waitFor({ timeout: timeoutMs });
    return (await toast.innerText()).trim();
  }

  /** Clicks a button of the notification whose message matches. */
  async clickNotificationButton(match: string | RegExp, button: string): Promise<void> {
    const re = typeof match === 'string' ? new RegExp(escape(match)) : match;
    const toast = this.page.locator('.notifications-toasts .notification-toast', { has: this.page.locator('.notification-list-item-message', { hasText: re }) }).first();
    await toast.locator('.monaco-button', { hasText: button }).first().click();
  }

  /** Closes every notification toast. */
  async clearNotifications(): Promise<void> {
    await this.runCommand('Notifications: Clear All Notifications').catch(() => undefined);
  }

  // ---------- editors ----------

  /** Title of the active editor tab. */
  async activeEditorTitle(): Promise<string> {
    return ((await this.page.locator('.part.editor .tab.active .label-name').first().textContent().catch(() => '')) ?? '').trim();
  }

  /** Visible text of the active editor (Monaco renders only visible lines; webviews are not read). */
  async activeEditorText(): Promise<string> {
    return (await this.page.locator('.part.editor .editor-instance .view-lines').first().innerText().catch(() => '')).replace(/\u00a0/g, ' ');
  }

  // ---------- screenshots ----------

  /** Saves a screenshot of the window to test-artifacts/screenshots/<name>.png and returns its path. */
  async screenshot(name: string): Promise<string> {
    fs.mkdirSync(screenshotsDir, { recursive: true });
    const file = path.join(screenshotsDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }
}
