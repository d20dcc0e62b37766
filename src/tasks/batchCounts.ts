// The children's counts of the batch parents a listing shows (their description, their menus): their whole records,
// read as the pages arrive, those of pages arriving together in one request, and their rows drawn again once the
// answer is in. No `vscode` import; taskTree.ts hands it each page.

import type { Clock } from '../api/clock';
import type { Task } from '../api/types';
import type { TaskNode } from './taskNodes';
import type { TaskRecords } from './taskRecords';

/** The batch parents of the pages listed within this time are read in one request. */
export const COUNTS_DELAY_MS = 100;

/** The rows the counts are drawn on. */
export interface BatchCountRows {
  /** The rows of a task, wherever it is listed. */
  rows(taskId: string): TaskNode[];
  /** How a row looks now (compared before and after a read). */
  look(node: TaskNode): string;
  redraw(node: TaskNode): void;
  /** The tree is gone (the view closed, the window reloading): nothing to draw, nothing to ask. */
  gone(): boolean;
}

export class BatchCounts {
  /** Reads of batch parents' counts under way (`settled` waits for them). */
  private readonly reads = new Set<Promise<void>>();
  /** Batch parents listed whose counts are to be read, and the read about to gather them. */
  private readonly wanted = new Map<string, Task>();
  private flush: Promise<void> | undefined;

  constructor(
    private readonly records: TaskRecords,
    private readonly tree: BatchCountRows,
    private readonly clock: Pick<Clock, 'setTimeout'>,
    private readonly delayMs: number,
  ) {}

  /**
   * The children's counts of the batch parents on a page: their whole records, 100 a request, read as the page
   * arrives; their rows are drawn again when the answer is in. Parents whose record is at hand cost nothing.
   */
  read(tasks: Task[]): void {
    const records = this.records;
    for (const t of tasks) if (t.batch === true && t.execution_status === undefined && !records.current(t)) this.wanted.set(t.id, t);
    if (!this.wanted.size || this.flush) return;
    // Pages that arrive close together (a refresh's, Load More clicked again) are read together: one request, not one
    // per page; one read at a time.
    this.flush = (async () => {
      await new Promise<void>((resolve) => this.clock.setTimeout(resolve, this.delayMs));
      await Promise.all([...this.reads]);
      this.flush = undefined;
      const parents = [...this.wanted.values()].filter((t) => !records.current(t));
      this.wanted.clear();
      // Gone meanwhile (the view closed, the window reloading): nothing to draw, nothing to ask.
      if (!parents.length || this.tree.gone()) return;
      const rows = parents.flatMap((t) => this.tree.rows(t.id));
      const drawn = new Map(rows.map((node) => [node, this.tree.look(node)]));
      const read: Promise<void> = records.many(parents).then(
        // Only the rows whose counts changed are drawn again (a refresh reads the parents of every page shown).
        () => {
          for (const [node, look] of drawn) if (!this.tree.gone() && this.tree.look(node) !== look) this.tree.redraw(node);
        },
        // The rows stay as listed; the next refresh reads them again.
        () => undefined,
      );
      const tracked = read.finally(() => this.reads.delete(tracked));
      this.reads.add(tracked);
    })();
  }

  /** Waits for the batch parents' counts being read (the tests and the bench: what a person sees a moment later). */
  async settled(): Promise<void> {
    while (this.flush || this.reads.size) await Promise.all([this.flush, ...this.reads]);
  }
}
