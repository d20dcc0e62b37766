import type { JobTracker } from '../jobs/tracker';
import type { Services } from '../services';
import type { CopyFlow } from './flow';
import type { Later } from '../util/later';

/** The copy flow as the rest of the extension uses it: each call waits for the flow (dist/features.js) the first time. */
export type CopyActionsOf = Pick<CopyFlow, 'run' | 'checkClashes' | 'retryFailed' | 'resubmit' | 'discard'>;

/** The running copy feature: what the views that hold sources (Projects & Files, a task's outputs) start a copy with. */
export interface CopyFeature {
  readonly flow: CopyActionsOf;
}

/** Copying: the interactive flow, made on first use from dist/features.js (the copy write is in src/writeKinds.ts). */
export function registerCopy(services: Services, tracker: JobTracker, load: Later<{ CopyFlow: typeof CopyFlow }>): CopyFeature {
  let made: CopyFlow | undefined;
  const flow = async () => (made ??= new (await load()).CopyFlow(services, tracker));
  return {
    flow: {
      run: async (sources, args) => (await flow()).run(sources, args),
      checkClashes: async (ids, sources, destination, newName) => (await flow()).checkClashes(ids, sources, destination, newName),
      retryFailed: async (job, options) => (await flow()).retryFailed(job, options),
      resubmit: async (group, anyway) => (await flow()).resubmit(group, anyway),
      discard: async (group) => (await flow()).discard(group),
    },
  };
}
