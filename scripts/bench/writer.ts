// The extension's write path as the bench drives it: a tracker, an outbox with the copy write, one account.
import type { SbClient } from '../../src/api/client';
import type { CopyItem } from '../../src/api/types';
import { CopyWrite, followCopies, type CopiesSettled } from '../../src/copy/copyWrite';
import { COPY_WRITE } from '../../src/jobs/copyRequests';
import type { Clock } from '../../src/api/clock';
import { JobTracker, type JobDestination } from '../../src/jobs/tracker';
import { Outbox } from '../../src/write/outbox';
import { memoryState } from '../../test/support/sharedState';

/** `clock` times the tracker (the accelerated clock of the follow scenario); the outbox runs in real time. */
export function benchWriter(client: SbClient, emulator: { baseUrl: string; token: string; username: string }, clock?: Clock) {
  const key = `${emulator.baseUrl}#${emulator.username}`;
  const account = { key, credentials: { endpoint: emulator.baseUrl, token: emulator.token } };
  const tracker = new JobTracker(client.copyJobs, memoryState(), clock, { account: () => key });
  const outbox = new Outbox(memoryState(), async () => account);
  outbox.register(new CopyWrite(client.copyJobs, client.files, tracker, () => client.budget.serverClock.now()));
  outbox.start();
  const send = (batches: CopyItem[][], destination: JobDestination): Promise<CopiesSettled> =>
    followCopies(outbox, tracker, () => outbox.submit(COPY_WRITE, batches.map((items) => ({ items, destination })), account));
  return { tracker, outbox, send };
}
