// The extension's write path as the bench drives it: a tracker, an outbox with the copy write, one account.
import type { SbClient } from '../../src/api/client';
import type { CopyItem } from '../../src/api/types';
import { copyWrite } from '../../src/copy/copyWrite';
import { systemClock, type Clock } from '../../src/api/clock';
import { trackedJobs } from '../../src/jobs/jobWrite';
import { JobTracker, type JobDestination, type TrackedJob } from '../../src/jobs/tracker';
import { WRITE_KINDS } from '../../src/keys/writes';
import { Outbox, type WriteRecord } from '../../src/write/outbox';
import { memoryState } from '../../test/support/sharedState';

/** `clock` times the tracker (the accelerated clock of the follow scenario); the outbox runs in real time. */
export function benchWriter(client: SbClient, emulator: { baseUrl: string; token: string; username: string }, clock?: Clock) {
  const key = `${emulator.baseUrl}#${emulator.username}`;
  const account = { key, credentials: { endpoint: emulator.baseUrl, token: emulator.token } };
  const tracker = new JobTracker(client.copyJobs, memoryState(), clock, { account: () => key });
  const copy = copyWrite({ jobs: client.fileJobs, files: client.files, tracker, clock: systemClock, serverNow: () => client.budget.serverClock.now() });
  const outbox = new Outbox(memoryState(), async () => account, [copy]);
  outbox.start();
  const send = async (batches: CopyItem[][], destination: JobDestination): Promise<{ records: WriteRecord[]; jobs: TrackedJob[]; left: WriteRecord[] }> => {
    const { records, finished, left } = await outbox.send(WRITE_KINDS.copy, batches.map((items) => ({ items, destination })), account);
    return { records, jobs: trackedJobs(tracker, finished), left };
  };
  return { tracker, outbox, send };
}
