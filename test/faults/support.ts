// Shared pieces of the fault suite: the run's token, the clients and emulators it makes (so the summary can add
// up their figures), the request log as the extension writes it, and the record of every message a person sees.
import * as assert from 'assert';
import { randomBytes } from 'crypto';
import type * as vscode from 'vscode';
import { SbClient } from '../../src/api/client';
import { ApiError, describeError } from '../../src/api/errors';
import type { RequestLogEntry, TransportOptions } from '../../src/api/transport';
import type { JobWriteTracker } from '../../src/jobs/jobWrite';
import { requestLogger } from '../../src/ui/requestLog';
import { startEmulator, type Emulator, type EmulatorOptions } from '../emulator';
import { RequestCounter } from '../support/requestCounter';
import { memoryState, type WindowState } from '../support/sharedState';

/** A fresh token per run, so a grep for it finds nothing but a real leak. */
export const TOKEN = `sbfault${randomBytes(16).toString('hex')}`;

/** Everything the summary table and the secrets checks read. */
export const record = {
  emulators: [] as Emulator[],
  clients: [] as SbClient[],
  /** What each client sent, counted through its onRequest hook. */
  sent: new Map<SbClient, RequestCounter>(),
  /** Faults injected by the suite's own hostile servers (bad bodies, foreign links, redirects). */
  hostileFaults: 0,
  /** Requests the hostile servers received. */
  hostileRequests: 0,
  /** Every message a person would see: an error text, a message node, a validation message. */
  messages: [] as { where: string; text: string }[],
  /** The request log entries (onRequest) and the lines the extension's requestLogger writes from them. */
  logEntries: [] as RequestLogEntry[],
  logLines: [] as string[],
  /** Persisted state (Memento stand-ins) to grep for the token. */
  stores: [] as WindowState[],
  /** Copy items the user asked for, and what the emulator received (filled by the copy tests). */
  copies: { requested: 0, received: 0, lost: 0, doubled: 0 },
  /** Jobs adopted after a lost answer, and of those how many were not the call's own (another client's, another call's). */
  adoptions: { adopted: 0, notOurs: 0 },
  /** Errors caught anywhere, to grep their text for the token. */
  errors: [] as unknown[],
  /** Writes by kind and case (`kind` or `kind\tcase`): the summary's second table (`accountWrites`). */
  writes: new Map<string, WriteFigures>(),
  /** Hostile input by class (odd names, answers, disks): the summary's third table (`accountIntegrity`). */
  integrity: new Map<string, IntegrityFigures>(),
};

/**
 * A class of hostile input (issue 36): the cases tried, the bytes compared with what was meant, the files the product
 * wrote outside the folder the person chose, the files shown or saved whole that were not the bytes meant (torn,
 * shifted, truncated, doubled), and the waits that did not end (a walk or a read that never stopped).
 */
export interface IntegrityFigures {
  cases: number;
  bytesCompared: number;
  outside: number;
  torn: number;
  hung: number;
}

/** Adds a test's figures for one class of hostile input to the summary. */
export function accountIntegrity(cls: string, figures: Partial<IntegrityFigures>): void {
  const sum = record.integrity.get(cls) ?? { cases: 0, bytesCompared: 0, outside: 0, torn: 0, hung: 0 };
  for (const [k, v] of Object.entries(figures) as [keyof IntegrityFigures, number][]) sum[k] += v;
  record.integrity.set(cls, sum);
}

/**
 * A kind's writes: asked for by the person; made by the platform exactly once, more than once (or a DELETE sent
 * twice), or never (and not left to the person); left to the person with what the platform showed (someone else's
 * change, nothing to prove it by: the person decides, nothing overwritten); a job, task or file taken for a write that
 * did not make it; a write left with no window owning it for 5 minutes.
 */
export interface WriteFigures {
  requested: number;
  once: number;
  doubled: number;
  lost: number;
  asked: number;
  wronglyAdopted: number;
  stuck: number;
}

/** Adds a test's figures for one kind of write to the summary; `what`: the case, a row of its own (issue 37's). */
export function accountWrites(kind: string, figures: Partial<WriteFigures>, what?: string): void {
  const key = what ? `${kind}\t${what}` : kind;
  const sum = record.writes.get(key) ?? { requested: 0, once: 0, doubled: 0, lost: 0, asked: 0, wronglyAdopted: 0, stuck: 0 };
  for (const [k, v] of Object.entries(figures) as [keyof WriteFigures, number][]) sum[k] += v;
  record.writes.set(key, sum);
}

/**
 * What the person asked for (`requested`, one key per write) against what the platform made (`made`, the key of
 * each effect): each key made as often as asked is "once"; more is doubled; fewer is lost.
 */
export function compareWrites(requested: readonly string[], made: readonly string[]): Pick<WriteFigures, 'requested' | 'once' | 'doubled' | 'lost'> {
  const want = new Map<string, number>();
  for (const key of requested) want.set(key, (want.get(key) ?? 0) + 1);
  const got = new Map<string, number>();
  for (const key of made) if (want.has(key)) got.set(key, (got.get(key) ?? 0) + 1);
  let once = 0;
  let doubled = 0;
  let lost = 0;
  for (const [key, n] of want) {
    const m = got.get(key) ?? 0;
    once += Math.min(n, m);
    doubled += Math.max(0, m - n);
    lost += Math.max(0, n - m);
  }
  return { requested: requested.length, once, doubled, lost };
}

const fakeLog = {
  info: (line: string) => record.logLines.push(line),
  warn: (line: string) => record.logLines.push(line),
} as unknown as vscode.LogOutputChannel;
const writeLog = requestLogger(fakeLog);

/** A client like the extension's: its requests logged through the extension's own requestLogger. Small back-off so the suite is quick. */
export function makeClient(endpoint: string, options: Partial<TransportOptions> & { token?: string | null } = {}): SbClient {
  const token = options.token === undefined ? TOKEN : options.token;
  const counter = new RequestCounter();
  const client = new SbClient({
    backoffMs: 20,
    timeoutMs: 10_000,
    ...options,
    credentials: options.credentials ?? (async () => (token === null ? undefined : { endpoint, token })),
    onRequest: counter.hook((entry) => {
      record.logEntries.push(entry);
      writeLog(entry);
    }),
  });
  record.clients.push(client);
  record.sent.set(client, counter);
  return client;
}

/** The requests a client of `makeClient` sent. */
export function sent(client: SbClient): RequestCounter {
  const counter = record.sent.get(client);
  if (!counter) throw new Error('not a client of makeClient');
  return counter;
}

export async function makeEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const emu = await startEmulator({ token: TOKEN, ...options });
  record.emulators.push(emu);
  return emu;
}

/** A window's state (the one fake of a Memento), kept for the secrets check. */
export function recordedState(): WindowState {
  const state = memoryState();
  record.stores.push(state);
  return state;
}

/** What a person must never see in a message: a stack, a JS value leaking through, the token. */
export function assertReadable(text: string, where: string): void {
  assert.ok(typeof text === 'string' && text.trim().length > 0, `${where}: empty message`);
  assert.ok(!/\n\s+at\s/.test(text) && !/\bat .*\.(js|ts):\d+/.test(text), `${where}: a stack trace in "${text}"`);
  assert.ok(!/\bundefined\b|\bnull\b|\[object Object\]|\bNaN\b/.test(text), `${where}: a JS value in "${text}"`);
  assert.ok(!/TypeError|ReferenceError|SyntaxError|Cannot read propert/.test(text), `${where}: a JS error in "${text}"`);
  assert.ok(!text.includes(TOKEN), `${where}: the token in "${text}"`);
}

/** Words in a message that tell a person what to do. */
export const ACTION_WORDS = /nothing to do|try again|set (a new|an authentication) token|check your connection|check (the|that|them)|resets at|use https|expected|paste|give |leave it out|needs|separate|copy the files/i;
/** Actions offered beside a message (buttons, action nodes). */
export const ACTION_TITLES = ['Retry', 'Set Authentication Token', 'Show Log', 'Submit Again', 'Check and Submit Again', 'Clear Task Filters', 'Discard'];

/**
 * Records a message a person sees and checks it: readable, and saying what to do, in its words or by an
 * action offered with it.
 */
export function shown(where: string, text: string, actions: readonly string[] = []): string {
  assertReadable(text, where);
  const acts = actions.filter((a) => ACTION_TITLES.includes(a));
  assert.ok(ACTION_WORDS.test(text) || acts.length > 0, `${where}: "${text}" says nothing to do (actions: ${actions.join(', ') || 'none'})`);
  record.messages.push({ where, text });
  return text;
}

/** describeError of an error, recorded as shown (with the actions the UI offers beside it). */
export function shownError(where: string, error: unknown, actions: readonly string[] = []): string {
  record.errors.push(error);
  if (error instanceof ApiError && error.isUnauthorized) actions = ['Set Authentication Token', ...actions];
  return shown(where, describeError(error), actions);
}

/** Waits until `done()` or the deadline; fails with `what` when the deadline passes. */
export async function waitFor(what: string, done: () => boolean | Promise<boolean>, timeoutMs = 15_000, stepMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(stepMs);
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Totals of the clients made so far. */
export function clientTotals(): { requests: number; retries: number; rateLimitWaits: number } {
  return [...record.sent.values()].reduce(
    (sum, c) => ({
      requests: sum.requests + c.requests,
      retries: sum.retries + c.retries,
      rateLimitWaits: sum.rateLimitWaits + c.rateLimitWaits,
    }),
    { requests: 0, retries: 0, rateLimitWaits: 0 },
  );
}

export function note(line: string): void {
  console.log(`      · ${line}`);
}

/** The key of a copy item: the same file to the same place under the same name is the same copy. */
function itemKey(item: unknown): string {
  const i = (item ?? {}) as Record<string, unknown>;
  return JSON.stringify([i.file ?? null, i.parent ?? null, i.project ?? null, i.name ?? null]);
}

/**
 * Compares what the user asked to copy with what the emulator received and processed (a job created):
 * each requested item must arrive exactly once. Adds the figures to the summary and returns them.
 */
export function accountCopies(emu: Emulator, requested: readonly unknown[], since = 0): { requested: number; received: number; lost: number; doubled: number } {
  const want = new Map<string, number>();
  for (const item of requested) want.set(itemKey(item), (want.get(itemKey(item)) ?? 0) + 1);
  const got = new Map<string, number>();
  let received = 0;
  for (const req of emu.copyRequests.slice(since)) {
    if (req.jobId === undefined || !Array.isArray(req.items)) continue;
    for (const item of req.items) {
      received++;
      got.set(itemKey(item), (got.get(itemKey(item)) ?? 0) + 1);
    }
  }
  let lost = 0;
  let doubled = 0;
  for (const [key, n] of want) lost += Math.max(0, n - (got.get(key) ?? 0));
  for (const [key, n] of got) doubled += Math.max(0, n - (want.get(key) ?? 0));
  const figures = { requested: requested.length, received, lost, doubled };
  record.copies.requested += figures.requested;
  record.copies.received += figures.received;
  record.copies.lost += figures.lost;
  record.copies.doubled += figures.doubled;
  return figures;
}

/**
 * A job tracker that follows nothing (the async deletes' and moves' jobs are not followed here): what the writes ask
 * of it answers that no job is another write's.
 */
export const NO_TRACKER: JobWriteTracker = { add: () => undefined as never, addAll: () => [], get: () => undefined, recordedWrites: () => new Map() };
