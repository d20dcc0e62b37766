// What a tree row shows, worked out without `vscode`: every tree's rows (tasks, files, copy jobs) are described
// this way, and their providers turn it into a TreeItem. The rows every paged tree has (a message, an error with
// what to do about it, "Load more") are defined here once.

import { parseRecordTimestamp } from '../api/timestamps';
import { ApiError, describeError } from '../api/errors';
import { errorActions, type MessageAction } from '../util/errorActions';
import { formatUtc, relativeTime } from '../util/time';
import { COMMANDS } from '../keys/commands';

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
  /** What a screen reader says for the row: plain words, no Markdown. */
  ariaLabel: string;
  icon: IconSpec;
  contextValue: string;
  expandable: boolean;
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
  return [
    new MessageNode<P>(`${id}/error`, parent, text, error instanceof ApiError && error.isTransient ? 'warning' : 'error', describeError(error)),
    ...errorActions(error, retry).map((a, i) => new MessageNode<P>(`${id}/action/${i}`, parent, a.title, 'info', undefined, a)),
  ];
}

export function messageView(node: MessageNode<unknown>): RowView {
  const icon = node.action ? actionIcon(node.action.command) : node.severity;
  return {
    label: node.text,
    description: '',
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
  if (command === COMMANDS.clearTaskFilter) return 'clear-all';
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
  const label = failed ? 'Could not load more: click to retry' : loadMoreLabel(listing.left, listing.loading);
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
  if (loading) return 'Loading more…';
  return left !== undefined && left > 0 ? `Load more (${left.toLocaleString('en-US')} left)` : 'Load more';
}

/** "2019-08-07 13:28 UTC (3 days ago)" for a record's timestamp; undefined when it has none that reads. */
export function whenText(value: unknown, now: number): string | undefined {
  const date = parseRecordTimestamp(value);
  return date ? `${formatUtc(date)} (${relativeTime(date, now)})` : undefined;
}

/** A tooltip's lines "Name: value", two spaces before each line break (Markdown), the empty ones left out. */
export function tooltipLines(rows: readonly (readonly [string, string | undefined])[]): string[] {
  return rows.filter(([, value]) => value !== undefined).map(([name, value]) => `${name}: ${value}  `);
}
