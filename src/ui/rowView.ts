// The one tree contract. Every view's rows come from a model without `vscode` (a RowModel): each row is a kind plus
// its record, and the model says what the row shows (a RowView). ui/rowTree.ts draws any RowModel; commands read a
// row's state from its record, never from what was drawn. The rows every paged tree has (a message, an error with
// what to do about it, "Load more") are defined here once.

import * as l10n from '@vscode/l10n';
import { parseRecordTimestamp } from '../api/timestamps';
import { ApiError, describeError } from '../api/errors';
import { errorActions, type MessageAction } from './errorActions';
import { formatUtc, relativeTime } from '../util/time';
import { COMMANDS } from '../keys/commands';
import { count } from '../util/words';
import { escapeMarkdown } from '../util/markdown';
import type { Event } from '../util/emitter';

/** A row of a view: what it is (`kind`) and what it stands for (its record, in the kind's own fields). */
export interface Row {
  readonly kind: string;
  /** Unique in its view, and the same across redraws (VS Code keeps selection and expansion by it). */
  readonly id: string;
}

/** The data side of a tree view: its rows, where each hangs (so `reveal` works), and what each shows. */
export interface RowModel<N extends Row> {
  /** Fires with the row whose children changed, or undefined for the whole view. */
  readonly onDidChange: Event<N | undefined>;
  /** Fires when rows may look otherwise (a word, a menu) while the rows themselves stay: only those that changed are drawn again. */
  readonly onDidRedraw?: Event<void>;
  getChildren(row?: N): Promise<N[]>;
  getParent(row: N): N | undefined;
  rowView(row: N): RowView;
  /** The tooltip of a row whose view says `tooltipOnHover`, read when it is hovered (Markdown when the view says so). */
  resolveTooltip?(row: N, signal?: AbortSignal): Promise<string | undefined>;
}

/**
 * What one kind of row does: how it looks, what it opens into, where it hangs. A view's kinds are one table
 * (`RowKinds`), read through `kindOf`: a new kind of row is one entry, and nothing asks a row what class it is.
 */
export interface RowKind<R, N, C> {
  view(row: R, context: C): RowView;
  /** Its rows when opened (none when it does not open). */
  children?(row: R, context: C): N[] | Promise<N[]>;
  /** The row it hangs under (none at the top, or when the view shows it flat). */
  parent?(row: R, context: C): N | undefined;
}

/** Every kind of a view's rows, each with what it does; `C` is what the entries read (the view's model). */
export type RowKinds<N extends Row, C> = { readonly [K in N['kind']]: RowKind<Extract<N, { readonly kind: K }>, N, C> };

/** The entry of a row's kind. */
export function kindOf<N extends Row, C>(kinds: RowKinds<N, C>, row: N): RowKind<N, N, C> {
  return (kinds as unknown as Record<string, RowKind<N, N, C>>)[row.kind];
}

/** Whether a value (a command's argument may be anything) is a row of one of these kinds. */
export function isRowOf<N extends Row>(kinds: RowKinds<N, never>, value: unknown): value is N {
  const kind = (value as { kind?: unknown } | null | undefined)?.kind;
  return typeof kind === 'string' && Object.prototype.hasOwnProperty.call(kinds, kind) && typeof (value as { id?: unknown }).id === 'string';
}

export interface IconSpec {
  /** A codicon id, e.g. `sync~spin`. */
  id: string;
  /** A theme colour id, e.g. `testing.iconPassed`. */
  color?: string;
}

export interface RowView {
  label: string;
  description: string;
  /** Plain text, or Markdown when `markdownTooltip` is set (codicons such as `$(error)` allowed, no links run). */
  tooltip: string;
  markdownTooltip?: boolean;
  /**
   * The tooltip needs more than the row's record: it is read when the row is hovered (RowModel.resolveTooltip), and
   * `tooltip` is not drawn.
   */
  tooltipOnHover?: boolean;
  /** What a screen reader says for the row: plain words, no Markdown. */
  ariaLabel: string;
  icon: IconSpec;
  /** Space-separated tokens the menus' when-clauses match (`viewItem =~ /\bcanAbort\b/`), made from the record. */
  contextValue: string;
  expandable: boolean;
  /** Open when first shown (an expandable row; collapsed otherwise). */
  expanded?: boolean;
  /** Drawn with the file icon theme's icon for a file or folder of its label's name, in place of `icon`. */
  fileIcon?: 'file' | 'folder';
  /** What a click runs. */
  command?: MessageAction;
}

/** A row that says something in place of (or after) a listing: empty, failed, or an action to take. */
export class MessageNode<P> {
  readonly kind = 'message';
  constructor(
    readonly id: string,
    readonly parent: P | undefined,
    readonly text: string,
    readonly severity: 'info' | 'warning' | 'error',
    /** Shown on hover. */
    readonly detail?: string,
    /** What a click does. */
    readonly action?: MessageAction,
    /** Shown beside the text (a hint worth reading without hovering). */
    readonly description?: string,
  ) {}
}

/** The row at the end of a listing with more to load. */
export class LoadMoreNode<P extends { readonly id: string }> {
  readonly kind = 'loadMore';
  readonly id: string;
  constructor(readonly parent: P) {
    this.id = `${parent.id}/more`;
  }
}

/**
 * The rows shown when a listing could not be read: what went wrong, then what to do (a new token when it was
 * refused, else `retry`, and the log when it helps).
 */
export function errorRows<P extends { readonly id: string }>(id: string, parent: P | undefined, error: unknown, retry: MessageAction, text = describeError(error)): MessageNode<P>[] {
  return [new MessageNode<P>(`${id}/error`, parent, text, error instanceof ApiError && error.isTransient ? 'warning' : 'error', describeError(error)), ...actionRows(id, parent, error, retry)];
}

/** The rows of what to do about an error, without the error's own row (when the words are said elsewhere, whole). */
export function actionRows<P extends { readonly id: string }>(id: string, parent: P | undefined, error: unknown, retry: MessageAction): MessageNode<P>[] {
  return errorActions(error, retry).map((a, i) => new MessageNode<P>(`${id}/action/${i}`, parent, a.title, 'info', undefined, a));
}

/** What a row shows, as two draws are compared (a command's arguments are rows themselves: left out). */
export function rowLook(view: RowView): string {
  const { command, ...shown } = view;
  return JSON.stringify([shown, command?.command, command?.title]);
}

export function messageView(node: MessageNode<unknown>): RowView {
  const icon = node.action ? actionIcon(node.action.command) : node.severity;
  return {
    label: node.text,
    description: node.description ?? '',
    tooltip: node.detail ?? '',
    ariaLabel: node.text,
    icon: { id: icon },
    contextValue: 'message',
    expandable: false,
    command: node.action,
  };
}

/** The codicon of a row that runs `command`. */
export function actionIcon(command: string): string {
  if (command === COMMANDS.setToken) return 'key';
  if (command === COMMANDS.clearTaskFilter || command === COMMANDS.clearFind) return 'clear-all';
  if (command === COMMANDS.showLog) return 'output';
  return 'refresh';
}

/** What a listing shows of itself on its "Load more" row. */
export interface ListingState {
  readonly left: number | undefined;
  readonly loading: boolean;
  readonly error: unknown;
}

/** "Load more (230 left)", "Loading more…", or a failed page to click again; a click runs `command`. */
export function loadMoreView(listing: ListingState, command: MessageAction): RowView {
  const failed = listing.error !== undefined && !listing.loading;
  const label = failed ? l10n.t('Could not load more: click to retry') : loadMoreLabel(listing.left, listing.loading);
  return {
    label,
    description: '',
    tooltip: failed ? describeError(listing.error) : '',
    ariaLabel: label,
    icon: { id: listing.loading ? 'loading~spin' : failed ? 'warning' : 'ellipsis' },
    contextValue: 'loadMore',
    expandable: false,
    command,
  };
}

export function loadMoreLabel(left: number | undefined, loading: boolean): string {
  if (loading) return l10n.t('Loading more…');
  if (left === undefined || left <= 0) return l10n.t('Load more');
  return left === 1 ? l10n.t('Load more (1 left)') : l10n.t('Load more ({0} left)', count(left));
}

/** "2019-08-07 13:28 UTC (3 days ago)" for a record's timestamp; undefined when it has none that reads. */
export function whenText(value: unknown, now: number): string | undefined {
  const date = parseRecordTimestamp(value);
  return date ? `${formatUtc(date)} (${relativeTime(date, now)})` : undefined;
}

/** The names of the fields tooltips list ("Created: …"): getters, so each is read from the bundle when shown. */
export const FIELD = {
  get id() { return l10n.t({ message: 'ID', comment: ['A field of a tooltip: the record\'s ID'] }); },
  get size() { return l10n.t({ message: 'Size', comment: ['A field of a tooltip: a file\'s size'] }); },
  get project() { return l10n.t({ message: 'Project', comment: ['A field of a tooltip: the project a file or task is in'] }); },
  get createdBy() { return l10n.t({ message: 'Created by', comment: ['A field of a tooltip: who created it'] }); },
  get created() { return l10n.t({ message: 'Created', comment: ['A field of a tooltip: when it was created'] }); },
  get modified() { return l10n.t({ message: 'Modified', comment: ['A field of a tooltip: when it was last modified'] }); },
  get rootFolder() { return l10n.t({ message: 'Root folder', comment: ['A field of a tooltip: a project\'s root folder'] }); },
  get status() { return l10n.t({ message: 'Status', comment: ['A field of a tooltip: a task\'s status'] }); },
  get app() { return l10n.t({ message: 'App', comment: ['A field of a tooltip: the app a task runs'] }); },
  get started() { return l10n.t({ message: 'Started', comment: ['A field of a tooltip: when a task started'] }); },
  get ended() { return l10n.t({ message: 'Ended', comment: ['A field of a tooltip: when a task ended'] }); },
  get duration() { return l10n.t({ message: 'Duration', comment: ['A field of a tooltip: how long a task ran'] }); },
  get progress() { return l10n.t({ message: 'Progress', comment: ['A field of a tooltip: a task\'s steps done'] }); },
  get batch() { return l10n.t({ message: 'Batch', comment: ['A field of a tooltip: a batch task\'s children'] }); },
  get batchParent() { return l10n.t({ message: 'Batch parent', comment: ['A field of a tooltip: the batch a task belongs to'] }); },
  get message() { return l10n.t({ message: 'Message', comment: ['A field of a tooltip: the platform\'s message about a task'] }); },
  get waiting() { return l10n.t({ message: 'Waiting', comment: ['A field of a tooltip: why a task waits'] }); },
  get price() { return l10n.t({ message: 'Price', comment: ['A field of a tooltip: what a task cost'] }); },
  get childrenCost() { return l10n.t({ message: 'Its children cost', comment: ['A field of a batch task\'s tooltip: what its children cost together'] }); },
  get tags() { return l10n.t({ message: 'Tags', comment: ['A field of a tooltip: a file\'s tags'] }); },
  get metadata() { return l10n.t({ message: 'Metadata', comment: ['A field of a tooltip: a file\'s metadata fields'] }); },
  get producedBy() { return l10n.t({ message: 'Produced by task', comment: ['A field of a tooltip: the task whose output a file is'] }); },
};

/** The line a tooltip ends with when the record it needs could not be read: it shows what the row's record holds. */
export function unreadTooltipLine(error: unknown): string {
  return `$(warning) ${escapeMarkdown(l10n.t('The rest could not be read: {0}', describeError(error)))}`;
}

/** A tooltip's lines "Name: value", two spaces before each line break (Markdown), the empty ones left out. */
export function tooltipLines(rows: readonly (readonly [string, string | undefined])[]): string[] {
  return rows.filter(([, value]) => value !== undefined).map(([name, value]) => `${name}: ${value}  `);
}
