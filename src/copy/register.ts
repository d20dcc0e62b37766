import type { AsyncJob } from '../api/types';
import { COPY_WRITE } from '../jobs/copyRequests';
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
  // A job a copy call of the outbox made is that call's: the lookup after a lost answer must not take it for another's.
  const claimed = () => new Set(outbox.all().flatMap((r) => (r.kind === COPY_WRITE && r.outcome ? [(r.outcome as AsyncJob).id] : [])));
  outbox.register(new CopyWrite(client.copyJobs, client.files, tracker, claimed, client.budget));
  const flow = new CopyFlow(services, tracker);
  return { flow };
}
