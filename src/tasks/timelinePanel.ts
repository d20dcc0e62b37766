// Show Timeline: a webview panel per task. A task's jobs (GET execution_details), or a batch parent's children (100 a
// page, each page drawn as it arrives, paced to the API budget), laid out by ./timelineModel and posted to the page
// (media/timeline.js), which sends back what a person opens: a job's log (the Open Log command), a child's timeline.
// Re-read on the refresh interval while the task runs and the panel is shown.

import { randomBytes } from 'crypto';
import * as vscode from 'vscode';
import { describeError } from '../api/errors';
import { isActive, type ExecutionDetails, type Task } from '../api/types';
import { COMMANDS } from '../keys/commands';
import type { Services } from '../services';
import { setting } from '../ui/settings';
import { Poller } from '../util/poller';
import { namePages } from './findTask';
import { bulkPace } from './paced';
import { intervalMs } from './refresher';
import { fullTask, type TaskRef } from './targets';
import { childItems, jobItems, jobLog, layoutTimeline, TIMELINE_CHILD_FIELDS, TIMELINE_MEDIA, timelineTitle, type TimelineData, type TimelineItem } from './timelineModel';
import { timelineHtml } from './timelinePage';

/** The panels' view type (one kind of webview panel). */
export const TIMELINE_VIEW_TYPE = 'sevenbridges.timeline';

type Message = { type: 'ready' } | { type: 'open'; key: string } | { type: 'failedFirst'; value: boolean };

function readMessage(value: unknown): Message | undefined {
  const m = value as { type?: unknown; key?: unknown; value?: unknown } | undefined;
  if (m?.type === 'ready') return { type: 'ready' };
  if (m?.type === 'open' && typeof m.key === 'string') return { type: 'open', key: m.key };
  if (m?.type === 'failedFirst' && typeof m.value === 'boolean') return { type: 'failedFirst', value: m.value };
  return undefined;
}

/**
 * Opens a task's timeline (loaded on first use: TimelinePanels, ./timelinePanels.ts, calls it): reads the task, keeps
 * the panel in `open` while it is open, and resolves once its first data is laid out (a batch: its first page).
 */
export async function openTimeline(services: Services, task: TaskRef, open: Map<string, TimelinePanel>): Promise<TimelinePanel> {
  const full = await fullTask(services.client, task);
  const panel = new TimelinePanel(services, full, () => open.delete(full.id));
  open.set(full.id, panel);
  try {
    await panel.firstData;
  } catch (error) {
    panel.dispose();
    throw error;
  }
  return panel;
}

export class TimelinePanel {
  readonly panel: vscode.WebviewPanel;
  /** What was laid out last, and how many times it was posted to the page (the tests read them). */
  data: TimelineData | undefined;
  posts = 0;
  /** Resolves once the first data is laid out; rejects when the first read failed. */
  readonly firstData: Promise<void>;
  /** Resolves once everything is read (a batch: its last page). */
  readonly loaded: Promise<void>;
  private failedFirst = false;
  private items: TimelineItem[] = [];
  private details: ExecutionDetails | undefined;
  private children: Task[] = [];
  private reading: { read: number; total?: number } | undefined;
  private problem: string | undefined;
  private ready = false;
  private readonly controller = new AbortController();
  private readonly refresh: Poller;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly services: Services,
    private task: Task,
    private readonly onDispose: () => void,
  ) {
    const media = vscode.Uri.joinPath(services.context.extensionUri, 'media');
    this.panel = vscode.window.createWebviewPanel(TIMELINE_VIEW_TYPE, timelineTitle(task.name || task.id), vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [media],
    });
    const webview = this.panel.webview;
    webview.html = timelineHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(media, TIMELINE_MEDIA.script)).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(media, TIMELINE_MEDIA.style)).toString(),
      nonce: randomBytes(16).toString('base64'),
      lang: vscode.env.language,
      title: timelineTitle(task.name || task.id),
      loading: vscode.l10n.t('Reading the timeline…'),
    });
    this.refresh = new Poller({
      poll: () => this.reload(),
      hasWork: () => isActive(this.task.status),
      interval: () => intervalMs(setting('refreshInterval')),
      visible: this.panel.visible,
      clock: services.clock,
      budget: services.client.budget,
      onError: (error) => services.log.warn(`Timeline: refresh failed: ${String(error)}`),
    });
    this.subscriptions.push(
      webview.onDidReceiveMessage((value) => void this.receive(value).catch((error) => services.log.warn(`Timeline: ${String(error)}`))),
      this.panel.onDidChangeViewState((e) => this.refresh.setVisible(e.webviewPanel.visible)),
      this.panel.onDidDispose(() => this.disposed()),
    );
    let first: () => void = () => undefined;
    this.firstData = new Promise<void>((resolve) => (first = resolve));
    this.loaded = this.read(first);
    this.firstData = Promise.race([this.firstData, this.loaded]);
    this.loaded.then(() => this.refresh.markFresh(), () => undefined);
  }

  get title(): string {
    return this.panel.title;
  }

  reveal(): void {
    this.panel.reveal();
  }

  /** What the page sends: it is ready (the data is posted again), open a bar, failed first or not. */
  async receive(value: unknown): Promise<void> {
    const message = readMessage(value);
    if (!message) return;
    if (message.type === 'ready') {
      this.ready = true;
      this.post(false);
    } else if (message.type === 'failedFirst') {
      this.failedFirst = message.value;
      this.post();
    } else {
      await this.open(message.key);
    }
  }

  /** A job's bar opens its log; a child's bar opens the child's timeline. */
  private async open(key: string): Promise<void> {
    if (this.task.batch) {
      const child = this.children.find((c) => c.id === key);
      if (child) await vscode.commands.executeCommand(COMMANDS.showTimeline, child);
      return;
    }
    const log = this.details ? jobLog(this.details, this.task, key) : undefined;
    if (log) await vscode.commands.executeCommand(COMMANDS.openLog, log);
  }

  /** Reads what the timeline shows; `first` is called once the first of it is drawn. */
  private async read(first: () => void): Promise<void> {
    const { client, clock } = this.services;
    const signal = this.controller.signal;
    if (!this.task.batch) {
      this.details = await client.tasks.executionDetails(this.task.id, signal);
      this.items = jobItems(this.details, this.task);
      this.post();
      first();
      return;
    }
    const children: Task[] = [];
    this.reading = { read: 0 };
    try {
      for await (const page of namePages(client.tasks, { parent: this.task.id }, { signal, fields: TIMELINE_CHILD_FIELDS, max: Infinity, beforePage: bulkPace(client.budget, clock, signal) })) {
        children.push(...page.items);
        this.reading = { read: children.length, total: page.total };
        // Until the first read is done, what is drawn grows page by page; a refresh swaps the whole at the end.
        if (!this.children.length || this.children === children) {
          this.children = children;
          this.items = childItems(children);
          this.post();
        }
        first();
      }
    } catch (error) {
      if (signal.aborted) return;
      if (!children.length) throw error;
      this.problem = vscode.l10n.t('Could not read more children: {0}', describeError(error));
    }
    this.reading = { read: children.length, total: children.length };
    this.children = children;
    this.items = childItems(children);
    this.post();
  }

  /** A refresh: the task again, then its jobs or children. */
  private async reload(): Promise<void> {
    this.task = await this.services.client.tasks.get(this.task.id, this.controller.signal);
    this.problem = undefined;
    await this.read(() => undefined);
  }

  /** Lays out what is known and posts it to the page (once it is ready). */
  private post(layout = true): void {
    if (layout || !this.data) {
      const data = layoutTimeline({ kind: this.task.batch ? 'batch' : 'task', task: this.task, items: this.items, failedFirst: this.failedFirst, now: this.services.clock.now(), reading: this.reading });
      this.data = this.problem ? { ...data, summary: `${data.summary} · ${this.problem}` } : data;
      this.panel.title = data.title;
    }
    if (!this.ready) return;
    this.posts++;
    void this.panel.webview.postMessage({ type: 'data', data: this.data });
  }

  private disposed(): void {
    this.controller.abort();
    this.refresh.dispose();
    for (const s of this.subscriptions) s.dispose();
    this.onDispose();
  }

  dispose(): void {
    this.panel.dispose();
  }
}
