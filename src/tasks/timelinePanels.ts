// The open timelines, one per task (Show Timeline). Here from the start; the panel itself (./timelinePanel.ts, its
// model and page) is loaded with dist/features.js when the first timeline opens.
import type { Services } from '../services';
import type { TaskRef } from './targets';
import type { openTimeline, TimelinePanel } from './timelinePanel';

/** The open timelines, one per task: Show Timeline on a task whose timeline is open reveals it. */
export class TimelinePanels {
  private readonly open = new Map<string, TimelinePanel>();

  /** Timelines being opened: a second Show Timeline meanwhile waits for the same panel. */
  private readonly opening = new Map<string, Promise<TimelinePanel>>();

  /** `load` gives the panel's code (dist/features.js). */
  constructor(
    private readonly services: Services,
    private readonly load: () => Promise<{ openTimeline: typeof openTimeline }>,
  ) {}

  /** Opens (or reveals) the task's timeline; resolves once its first data is laid out (a batch: its first page). */
  async show(task: TaskRef): Promise<TimelinePanel> {
    const shown = this.open.get(task.id);
    if (shown) {
      shown.reveal();
      return shown;
    }
    const pending = this.opening.get(task.id) ?? this.create(task).finally(() => this.opening.delete(task.id));
    this.opening.set(task.id, pending);
    return pending;
  }

  private async create(task: TaskRef): Promise<TimelinePanel> {
    return (await this.load()).openTimeline(this.services, task, this.open);
  }

  get(taskId: string): TimelinePanel | undefined {
    return this.open.get(taskId);
  }

  dispose(): void {
    for (const panel of [...this.open.values()]) panel.dispose();
  }
}
