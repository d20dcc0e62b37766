// The API budget in words while it is low: "API budget: 85 of 1,000 left, resets in 2 min". The account's
// tooltip and the Data Jobs view show it. No `vscode` import.
import * as l10n from '@vscode/l10n';
import type { ApiBudget, BudgetLeft } from '../api/budget';
import type { Clock } from '../api/clock';
import { Emitter } from '../util/emitter';
import { formatDuration } from '../util/time';
import { count } from '../util/words';

/** While low, the words are read again this often, so that "resets in …" stays true when no answer comes. */
const REREAD_MS = 30_000;

export function budgetWords(left: BudgetLeft): string {
  // Whole minutes past the first: the reset is given in seconds, and clocks differ by some.
  const until = left.untilResetMs >= 60_000 ? Math.ceil(left.untilResetMs / 60_000) * 60_000 : left.untilResetMs;
  return l10n.t({
    message: 'API budget: {0} of {1} left, resets in {2}',
    args: [count(left.remaining), count(left.limit), formatDuration(until)],
    comment: ['{0}, {1}: request counts; {2}: a duration ("2 min")'],
  });
}

/** The budget's words while it is low (under 10 % left), else undefined; `onDidChange` when they change. */
export class BudgetNotice {
  private words: string | undefined;
  private timer: unknown;
  private readonly changed = new Emitter<string | undefined>();
  readonly onDidChange = this.changed.event;
  private readonly listening: { dispose(): void };

  constructor(
    private readonly budget: Pick<ApiBudget, 'left' | 'low' | 'onDidChange'>,
    private readonly clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>,
  ) {
    this.listening = budget.onDidChange(() => this.update());
    this.update();
  }

  get current(): string | undefined {
    return this.words;
  }

  private update(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    const left = this.budget.low ? this.budget.left() : undefined;
    if (left) this.timer = this.clock.setTimeout(() => this.update(), Math.min(REREAD_MS, left.untilResetMs + 1_000));
    const words = left && budgetWords(left);
    if (words === this.words) return;
    this.words = words;
    this.changed.fire(words);
  }

  dispose(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.listening.dispose();
    this.changed.dispose();
  }
}
