import * as assert from 'assert';
import * as FakeTimers from '@sinonjs/fake-timers';
import { SbClient } from '../../../src/api/client';
import { benchWriter } from '../../../scripts/bench/writer';
import { startEmulator } from '../../emulator';

/** What following copy jobs costs in requests, against the emulator on a simulated clock. */
describe('following copy jobs: requests spent', () => {
  for (const count of [1, 10]) {
    it(`follows ${count} job(s) of 100 files to FINISHED`, async () => {
      const clock = FakeTimers.createClock(Date.UTC(2026, 0, 1));
      const emu = await startEmulator({ now: () => clock.now, copyStepMs: 5_000, files: 3000 });
      try {
        const client = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }) });
        const timers = { now: () => clock.now, setTimeout: (f: () => void, ms: number) => clock.setTimeout(f, ms), clearTimeout: (h: unknown) => clock.clearTimeout(h as never) };
        const { tracker, outbox, send } = benchWriter(client, emu, timers);
        const files = emu.data.files.filter((f) => f.type === 'file').slice(0, count * 100);
        const batches = Array.from({ length: count }, (_, i) => files.slice(i * 100, i * 100 + 100).map((f) => ({ file: f.id, project: emu.data.projects[4].id })));
        const report = await send(batches, { label: 'x', project: emu.data.projects[4].id });
        outbox.dispose();
        assert.strictEqual(report.jobs.length, count);
        const start = clock.now;
        tracker.stats.listCalls = tracker.stats.getCalls = 0;
        const before = client.transport.stats.requests;
        let polls = tracker.stats.polls;
        for (let s = 0; s < 600 && tracker.active().length + tracker.all().filter((j) => !j.result?.length).length > 0; s++) {
          await clock.tickAsync(1_000);
          if (tracker.stats.polls !== polls) {
            polls = tracker.stats.polls;
            for (let i = 0; i < 50 && (tracker as unknown as { polling?: unknown }).polling; i++) await new Promise((r) => setTimeout(r, 5));
          }
        }
        const seconds = (clock.now - start) / 1000;
        const spent = client.transport.stats.requests - before;
        console.log(`      ${count} job(s): FINISHED after ${seconds} s simulated; ${spent} requests (${tracker.stats.listCalls} list, ${tracker.stats.getCalls} get), ${(spent / (seconds / 60)).toFixed(1)} per minute`);
        assert.strictEqual(tracker.active().length, 0);
        assert.ok(tracker.all().every((j) => j.result?.length === 100));
        if (count > 1) assert.ok(spent <= Math.ceil(seconds / 5) + count + 2, `spent ${spent}`);
        tracker.dispose();
      } finally {
        await emu.close();
      }
    });
  }
});
