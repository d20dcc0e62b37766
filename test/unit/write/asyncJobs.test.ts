// The copy write's identity rule (write/asyncJobs.ts) against a long job list: what it may and may not conclude.
import * as assert from 'assert';
import type { AsyncJob, CopyItem, Page } from '../../../src/api/types';
import { CopyWrite, type CopyRecord } from '../../../src/copy/copyWrite';
import { JobTracker } from '../../../src/jobs/tracker';
import { FakeClock } from '../../support/fakeClock';
import { memoryState } from '../../support/sharedState';

const DAY = 24 * 3600_000;
const credentials = { endpoint: 'https://api.sbgenomics.com/v2', token: 'a-token-of-the-test' };
const destination = { label: 'dest', project: 'rfranklin/dest' };
const fileId = (n: number) => n.toString(16).padStart(24, 'a');

/** The account's async jobs, oldest first (the order is not documented), 100 a page. */
class LongJobList {
  readonly jobs: AsyncJob[] = [];
  listed = 0;
  constructor(private readonly now: () => number) {}
  add(items: CopyItem[], agoMs: number): AsyncJob {
    const id = String(70_711_174_378_000_000n + BigInt(this.jobs.length));
    const result = items.map((item, i) => ({ resource: { href: '', id: fileId(9_000 + i), name: `sample_${item.file.slice(-3)}.bam`, project: destination.project } }));
    const job: AsyncJob = { id, type: 'COPY', state: 'FINISHED', started_on: new Date(this.now() - agoMs).toISOString(), result };
    this.jobs.push(job);
    return job;
  }
  async list(page: { offset?: number; limit?: number } = {}): Promise<Page<AsyncJob>> {
    this.listed++;
    const offset = page.offset ?? 0;
    const limit = page.limit ?? 25;
    return { items: this.jobs.slice(offset, offset + limit), total: this.jobs.length, next: offset + limit < this.jobs.length ? 'next' : undefined };
  }
  async get(id: string): Promise<AsyncJob> {
    return this.jobs.find((j) => j.id === id)!;
  }
  async submit(): Promise<AsyncJob> {
    throw new Error('not sent here');
  }
}

describe('the copy write\'s identity rule on a long job list', () => {
  it('a list longer than the pages a lookup reads gives "unknown", never "absent", and adopts no old job that matches', async () => {
    const clock = new FakeClock();
    const jobs = new LongJobList(clock.now);
    const mine: CopyItem[] = [{ file: fileId(7), project: destination.project }];
    const names = { [fileId(7)]: 'sample_aa7.bam' };
    for (let i = 0; i < 1_000; i++) jobs.add([{ file: fileId(10_000 + i), project: destination.project }], 3 * DAY - i * 60_000);
    // Past the end of what a snapshot reads: an old copy of the very same file (a day ago), then 1,300 more old jobs.
    jobs.add(mine, DAY);
    for (let i = 0; i < 1_300; i++) jobs.add([{ file: fileId(20_000 + i), project: destination.project }], 2 * DAY);
    const write = new CopyWrite(jobs, { get: async () => ({ href: '', id: '', name: '' }) }, new JobTracker(jobs, memoryState(), clock), clock.now, undefined, clock);
    const record = { v: 2, id: 'w1', kind: 'copy', group: 'g', account: 'a', owner: 'o', state: 'sending', createdAt: clock.now(), attempts: 1, resends: 0, payload: { items: mine, destination, sourceNames: names } } as CopyRecord;
    if (write.identity.by !== 'difference') throw new Error('the copy is found by difference');
    const snapshot = await write.identity.snapshot(record, credentials);
    assert.deepStrictEqual([snapshot.before.length, snapshot.complete], [1_000, false], 'the snapshot reads 10 pages of a longer list');
    // The call itself was never received.
    clock.advance(5_000);
    const result = await write.identity.find({ ...record, snapshot }, credentials, () => false);
    assert.ok('unknown' in result, `"unknown", not ${JSON.stringify(result).slice(0, 120)}`);
    assert.match(result.unknown, /too long to check to its end/);
  });
});
