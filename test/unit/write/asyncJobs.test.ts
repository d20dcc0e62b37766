// The copy write's identity rule (write/asyncJobs.ts) against a long job list: what it may and may not conclude.
import * as assert from 'assert';
import type { AsyncJob, CopyItem, Page } from '../../../src/api/types';
import { copyWrite, matchCopy, type CopyRecord } from '../../../src/copy/copyWrite';
import { JobTracker } from '../../../src/jobs/tracker';
import { FakeClock } from '../../support/fakeClock';
import { memoryState } from '../../support/sharedState';

const DAY = 24 * 3600_000;
const credentials = { endpoint: 'https://api.sbgenomics.com/v2', token: 'a-token-of-the-test' };
const destination = { label: 'dest', project: 'rfranklin/dest' };
const fileId = (n: number) => n.toString(16).padStart(24, 'a');

/** The account's async jobs, oldest first (the order is not documented), 100 a page; or in a new order on every call. */
class LongJobList {
  readonly jobs: AsyncJob[] = [];
  listed = 0;
  gets = 0;
  /** A seeded shuffle per call (`shuffled`): nothing may be read into the order, not even that it stays. */
  shuffled = false;
  private seed = 7;
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
    const jobs = this.shuffled ? this.shuffle([...this.jobs]) : this.jobs;
    return { items: jobs.slice(offset, offset + limit), total: jobs.length, next: offset + limit < jobs.length ? 'next' : undefined };
  }
  async get(id: string): Promise<AsyncJob> {
    this.gets++;
    return this.jobs.find((j) => j.id === id)!;
  }
  private shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      this.seed = (this.seed * 1_103_515_245 + 12_345) % 2 ** 31;
      const j = this.seed % (i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }
  async submit(): Promise<AsyncJob> {
    throw new Error('not sent here');
  }
  /** The same list as the async file jobs' calls (a job asked by kind and ID). */
  asFileJobs() {
    return { submit: () => this.submit(), list: (page?: { offset?: number; limit?: number }) => this.list(page), get: (_kind: string, id: string) => this.get(id) };
  }
}

/** The copy write as the extension declares it, over the list. */
const copyOver = (clock: FakeClock, jobs: LongJobList) =>
  copyWrite({ jobs: jobs.asFileJobs(), files: { get: async () => ({ href: '', id: '', name: '' }) }, tracker: new JobTracker(jobs, memoryState(), clock), clock, serverNow: clock.now });

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
    const write = copyOver(clock, jobs);
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

  const setup = (clock: FakeClock, jobs: LongJobList) => {
    const write = copyOver(clock, jobs);
    if (write.identity.by !== 'difference') throw new Error('the copy is found by difference');
    return { write, identity: write.identity };
  };
  const callOf = (clock: FakeClock, items: CopyItem[], names: Record<string, string>) =>
    ({ v: 2, id: 'w1', kind: 'copy', group: 'g', account: 'a', owner: 'o', state: 'sending', createdAt: clock.now(), attempts: 1, resends: 0, payload: { items, destination, sourceNames: names } }) as CopyRecord;

  it('past an incomplete snapshot, among more than ten unclaimed jobs inside its time margin, every one is looked at: its own job is found', async () => {
    const clock = new FakeClock();
    const jobs = new LongJobList(clock.now);
    for (let i = 0; i < 1_200; i++) jobs.add([{ file: fileId(10_000 + i), project: destination.project }], 3 * DAY - i * 60_000);
    const mine: CopyItem[] = [{ file: fileId(7), project: destination.project }];
    const { identity } = setup(clock, jobs);
    const call = callOf(clock, mine, { [fileId(7)]: 'sample_aa7.bam' });
    const snapshot = await identity.snapshot(call, credentials);
    assert.strictEqual(snapshot.complete, false);
    // Fifteen copies made by a script in the seconds around the call (other files), then the call's own job.
    for (let i = 0; i < 15; i++) jobs.add([{ file: fileId(30_000 + i), project: destination.project }], 0);
    const own = jobs.add(mine, 0);
    clock.advance(5_000);
    const found = await identity.find({ ...call, snapshot }, credentials, () => false);
    assert.deepStrictEqual(found, { found: own });
  });

  it('what a lookup that finds nothing says is true: "no results" only while a job lacks them; none there: not on the platform', async () => {
    const clock = new FakeClock();
    const jobs = new LongJobList(clock.now);
    for (let i = 0; i < 1_200; i++) jobs.add([{ file: fileId(10_000 + i), project: destination.project }], 3 * DAY - i * 60_000);
    const { identity } = setup(clock, jobs);
    const call = callOf(clock, [{ file: fileId(7), project: destination.project }], { [fileId(7)]: 'sample_aa7.bam' });
    const snapshot = await identity.snapshot(call, credentials);
    for (let i = 0; i < 15; i++) jobs.add([{ file: fileId(30_000 + i), project: destination.project }], 0);
    // The call itself was never received.
    const lookup = await identity.find({ ...call, snapshot }, credentials, () => false);
    assert.deepStrictEqual(lookup, { absent: 'No job on the platform matches it.' }, 'the lookup read the list whole: none of the fifteen new jobs is it');
    const running = jobs.add([{ file: fileId(40_000), project: destination.project }], 0);
    running.state = 'RUNNING';
    running.result = [];
    const waiting = await identity.find({ ...call, snapshot }, credentials, () => false);
    assert.match((waiting as { unknown: string }).unknown, /cannot be told apart yet \(no results\)/);
  });

  it('a job list whose order changes from one page to the next is read again until it holds every job: the snapshot is whole, the call\'s job found', async () => {
    const clock = new FakeClock();
    const jobs = new LongJobList(clock.now);
    jobs.shuffled = true;
    for (let i = 0; i < 120; i++) jobs.add([{ file: fileId(10_000 + i), project: destination.project }], DAY);
    const mine: CopyItem[] = [{ file: fileId(7), project: destination.project }];
    const { identity } = setup(clock, jobs);
    const call = callOf(clock, mine, { [fileId(7)]: 'sample_aa7.bam' });
    const snapshot = await identity.snapshot(call, credentials);
    assert.deepStrictEqual([new Set(snapshot.before).size, snapshot.complete], [120, true]);
    const own = jobs.add(mine, 0);
    assert.deepStrictEqual(await identity.find({ ...call, snapshot }, credentials, () => false), { found: own });
  });
});

describe('a copy\'s job answers for the call by its results', () => {
  it('a renamed result (N_<name>) matches a name with pattern characters in it, and only that name', () => {
    for (const name of ['a (1).bam', 'x+y.bam', '[lane].fq', 'a.b*c?.vcf', 'cost $5 ^ {1}|2\\3.txt']) {
      const payload = { items: [{ file: fileId(1), project: destination.project }], destination };
      const job = (copied: string): AsyncJob => ({ id: '1', state: 'FINISHED', result: [{ resource: { href: '', id: fileId(99), name: copied, project: destination.project } }] });
      assert.strictEqual(matchCopy(payload, { [fileId(1)]: name }, job(`1_${name}`)), 'yes', name);
      assert.strictEqual(matchCopy(payload, { [fileId(1)]: name }, job(`12_${name}`)), 'yes', name);
      assert.strictEqual(matchCopy(payload, { [fileId(1)]: name }, job(`1_${name.replace(/[^a-z0-9]/g, 'x')}`)), 'no', `${name}: a pattern character is itself`);
    }
    const payload = { items: [{ file: fileId(1), project: destination.project }], destination };
    const job = (copied: string): AsyncJob => ({ id: '1', state: 'FINISHED', result: [{ resource: { href: '', id: fileId(99), name: copied, project: destination.project } }] });
    assert.strictEqual(matchCopy(payload, { [fileId(1)]: 'a (1).bam' }, job('1_a 1.bam')), 'no');
  });
});
