// What tasks cost: the one money formatter, a task's price in words, and the total of many tasks (per currency,
// with how many had no price), read page by page with only the price field. No `vscode` import.

import * as l10n from '@vscode/l10n';
import type { TaskListQuery } from '../api/tasks';
import type { Page, Task, TaskPrice } from '../api/types';
import { count, taskCount } from '../util/words';

/** "$1,318.40", "€12.00", "12.00 XYZ" for a code the runtime does not know; no currency given reads as US dollars. */
export function formatMoney(amount: number, currency: string | undefined): string {
  const code = (currency ?? 'USD').trim().toUpperCase() || 'USD';
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: code, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);
  } catch {
    return `${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${code}`;
  }
}

/** The price's amount when it is a finite number (the platform's answer is read, not trusted). */
function amountOf(price: TaskPrice | undefined): number | undefined {
  const amount = price?.amount;
  return typeof amount === 'number' && Number.isFinite(amount) ? amount : undefined;
}

/** "$1.23 (computation $1.10, storage $0.10, data transfer $0.03)": a task's price with its breakdown, or undefined. */
export function priceWords(price: TaskPrice | undefined): string | undefined {
  const amount = amountOf(price);
  if (amount === undefined) return undefined;
  const total = formatMoney(amount, price!.currency);
  const breakdown = price!.breakdown;
  if (!breakdown || typeof breakdown !== 'object') return total;
  const part = (value: unknown, words: (money: string) => string) => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : typeof value === 'number' ? value : NaN;
    return Number.isFinite(n) ? words(formatMoney(n, price!.currency)) : undefined;
  };
  const parts = [
    part(breakdown.computation, (m) => l10n.t({ message: 'computation {0}', args: [m], comment: ['A part of a task\'s price; {0}: an amount, "$1.10"'] })),
    part(breakdown.storage, (m) => l10n.t({ message: 'storage {0}', args: [m], comment: ['A part of a task\'s price; {0}: an amount, "$0.10"'] })),
    part(breakdown.data_transfer, (m) => l10n.t({ message: 'data transfer {0}', args: [m], comment: ['A part of a task\'s price; {0}: an amount, "$0.03"'] })),
  ].filter((p): p is string => p !== undefined);
  return parts.length ? `${total} (${parts.join(', ')})` : total;
}

/** The cost of some tasks: how many were read, how many had no price, and the sum per currency. */
export interface CostTotal {
  tasks: number;
  unpriced: number;
  /** Currency code → sum, in the order the currencies were first met. */
  sums: Record<string, number>;
}

export function emptyCost(): CostTotal {
  return { tasks: 0, unpriced: 0, sums: {} };
}

/** Adds tasks to a total (in place; returns it). Sums are kept in hundredths of a cent, so 1,000 additions stay exact. */
export function addCosts(total: CostTotal, tasks: readonly Pick<Task, 'price'>[]): CostTotal {
  for (const task of tasks) {
    total.tasks++;
    const amount = amountOf(task.price);
    if (amount === undefined) {
      total.unpriced++;
      continue;
    }
    addAmount(total, (task.price?.currency ?? 'USD').trim().toUpperCase() || 'USD', amount);
  }
  return total;
}

function addAmount(total: CostTotal, code: string, amount: number): void {
  total.sums[code] = (Math.round((total.sums[code] ?? 0) * 10_000) + Math.round(amount * 10_000)) / 10_000;
}

/** The total of some tasks' prices in one pass. */
export function costOf(tasks: readonly Pick<Task, 'price'>[]): CostTotal {
  return addCosts(emptyCost(), tasks);
}

/** Adds one total to another (in place; returns it). */
export function mergeInto(total: CostTotal, more: CostTotal): CostTotal {
  total.tasks += more.tasks;
  total.unpriced += more.unpriced;
  for (const [code, amount] of Object.entries(more.sums)) addAmount(total, code, amount);
  return total;
}

/** Two totals added up, neither changed. */
export function mergeCosts(a: CostTotal, b: CostTotal): CostTotal {
  return mergeInto(mergeInto(emptyCost(), a), b);
}

/** "$1,318.40", "$1,200.00 + €118.40" (one sum per currency), or undefined when no task had a price. */
export function moneyWords(total: CostTotal): string | undefined {
  const sums = Object.entries(total.sums);
  return sums.length ? sums.map(([code, amount]) => formatMoney(amount, code)).join(' + ') : undefined;
}

/** "214 tasks, $1,318.40 (3 without a price)": a total in words. */
export function costWords(total: CostTotal): string {
  const money = moneyWords(total);
  const head = money ? `${taskCount(total.tasks)}, ${money}` : total.tasks ? l10n.t('{0}, none with a price', taskCount(total.tasks)) : l10n.t('no tasks');
  if (!money || !total.unpriced) return head;
  return total.unpriced === 1 ? l10n.t('{0} (1 without a price)', head) : l10n.t('{0} ({1} without a price)', head, count(total.unpriced));
}

/** The part of the client a cost read needs. */
export interface CostSource {
  list(query: TaskListQuery, page: { offset?: number; limit?: number; signal?: AbortSignal }): Promise<Page<Task>>;
  next(url: string, signal?: AbortSignal): Promise<Page<Task>>;
}

export interface CostReadOptions {
  signal?: AbortSignal;
  /** After each page: the total so far and how many match (when the platform said). */
  onPage?: (total: CostTotal, matching: number | undefined) => void;
  /** Waits before each page while the API budget asks bulk work to hold back (ApiBudget.holdBulk, slept on the Clock). */
  beforePage?: () => Promise<void>;
}

/** The query's filters, its order left out. */
export function withoutOrder(query: TaskListQuery): TaskListQuery {
  const filters = { ...query };
  delete filters.order_by;
  delete filters.order;
  return filters;
}

/** The largest page the API gives. */
const COST_PAGE = 100;

/**
 * The total of the tasks a query matches, read 100 a page with the price field only, following the `next` links. The
 * query's order is left to the platform's default (oldest first): a task made during the read joins the end, not
 * shifting the pages still to come.
 */
export async function readCost(source: CostSource, query: TaskListQuery, options: CostReadOptions = {}): Promise<CostTotal> {
  const total = emptyCost();
  await options.beforePage?.();
  let page = await source.list({ ...withoutOrder(query), fields: 'price' }, { offset: 0, limit: COST_PAGE, signal: options.signal });
  const matching = page.total;
  // A page may come back empty before the end (a platform that filters after paging): read on while there is a next
  // page, never one asked before, so the total is never that of the pages before an empty one.
  const asked = new Set<string>();
  for (;;) {
    addCosts(total, page.items);
    options.onPage?.(total, matching);
    if (!page.next || asked.has(page.next)) return total;
    asked.add(page.next);
    options.signal?.throwIfAborted();
    await options.beforePage?.();
    page = await source.next(page.next, options.signal);
  }
}
