import * as assert from 'assert';
import { SbClient } from '../../../src/api/client';
import { benchWriter } from '../../../scripts/bench/writer';
import { startEmulator } from '../../emulator';
import { FakeClock } from '../../support/fakeClock';
import { RequestCounter } from '../../support/requestCounter';

/** The job list (`GET /v2/async/files`) and one job's details (`GET /v2/async/files/copy/{id}`). */
const LIST = /^\/v2\/async\/files(\?|$)/;
const DETAILS = /^\/v2\/async\/files\/copy\//;

/** What following copy jobs costs in requests, against the emulator on a simulated clock. */
describe('following copy jobs: requests spent', () => {
  for (const count of [1, 10]) {
    it(`follows ${count} job(s) of 100 files to FINISHED`, async () => {
      const clock = new FakeClock(Date.UTC(2026, 0, 1));
      const emu = await startEmulator({ now: clock.now, copyStepMs: 5_000, files: 3000 });
      try {
        const counter = new RequestCounter();
        const client = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }), onRequest: counter.hook() });
        const { tracker, outbox, send } = benchWriter(client, emu, clock);
        const files = emu.data.files.filter((f) => f.type === 'file').slice(0, count * 100);
        const batches = Array.from({ length: count }, (_, i) => files.slice(i * 100, i * 100 + 100).map((f) => ({ file: f.id, project: emu.data.projects[4].id })));
        const report = await send(batches, { label: 'x', project: emu.data.projects[4].id });
        outbox.dispose();
        assert.strictEqual(report.jobs.length, count);
        const start = clock.now();
        const [lists, details] = [counter.count('GET', LIST), counter.count('GET', DETAILS)];
        const spent = counter.mark();
        const following = () => tracker.active().length + tracker.all().filter((j) => !j.result?.length).length > 0;
        for (let s = 0; s < 600 && following(); s++) {
          await clock.tickAsync(1_000);
          // The poll's requests take real time while the clock stands still: until it ends, nothing is scheduled.
          for (let i = 0; i < 10_000 && following() && tracker.nextPollAt === undefined; i++) await new Promise((r) => setImmediate(r));
        }
        const seconds = (clock.now() - start) / 1000;
        const [listed, fetched] = [counter.count('GET', LIST) - lists, counter.count('GET', DETAILS) - details];
        console.log(`      ${count} job(s): FINISHED after ${seconds} s simulated; ${spent()} requests (${listed} list, ${fetched} get), ${(spent() / (seconds / 60)).toFixed(1)} per minute`);
        assert.strictEqual(tracker.active().length, 0);
        assert.ok(tracker.all().every((j) => j.result?.length === 100));
        assert.strictEqual(spent(), listed + fetched, 'every request spent following was a list or a GET of one job');
        if (count > 1) assert.ok(spent() <= Math.ceil(seconds / 5) + count + 2, `spent ${spent()}`);
        tracker.dispose();
      } finally {
        await emu.close();
      }
    });
  }
});
