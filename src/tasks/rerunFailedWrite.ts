// The write kind of Re-run Failed (./rerunFailed.ts has the plan, its confirmation and the watch): here on its own
// because the outbox needs it from the start (a re-run left unfinished by a reload goes on: src/writeKinds.ts), the
// rest on first use.
import type { ApiBudget } from '../api/budget';
import type { Clock } from '../api/clock';
import type { Task } from '../api/types';
import { WRITE_KINDS } from '../keys/writes';
import type { WriteKind } from '../write/kinds';
import { rerunWrite, type TaskActionApi, type TaskActionPayload } from './actions';
import type { CloneSnapshot } from './newTaskIdentity';


/**
 * The re-run kind (ARCHITECTURE.md, "Writes": found by difference, the clone with the original's name and app that
 * appeared in its project since the snapshot, claimed by no other write), held back while the API budget is nearly
 * spent: a thousand re-runs wait for the reset rather than meet a 429.
 */
export function rerunFailedWrite(api: TaskActionApi, budget: Pick<ApiBudget, 'holdBulk'>, clock?: Pick<Clock, 'monotonic'>, serverNow?: () => number | undefined): WriteKind<TaskActionPayload, CloneSnapshot, Task> {
  return { ...rerunWrite(api, clock, serverNow), name: WRITE_KINDS.rerunFailed, hold: () => budget.holdBulk(1) };
}

