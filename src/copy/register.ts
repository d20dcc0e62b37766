import type { JobTracker } from '../jobs/tracker';
import type { Services } from '../services';
import { CopyWrite } from './copyWrite';
import { CopyFlow } from './flow';

/** The running copy feature: what the views that hold sources (Projects & Files, a task's outputs) start a copy with. */
export interface CopyFeature {
  readonly flow: CopyFlow;
}

/** Copying: the write that sends copy calls, and the interactive flow. */
export function registerCopy(services: Services, tracker: JobTracker): CopyFeature {
  const { client, outbox } = services;
  outbox.register(new CopyWrite(client.copyJobs, client.files, tracker, () => client.budget.serverClock.now(), client.budget));
  const flow = new CopyFlow(services, tracker);
  return { flow };
}
