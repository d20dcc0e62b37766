// The import and export writes' identity rule on an in-memory list of jobs: after a lost answer, the jobs it made are
// those not in the snapshot whose source and destination match an item, claimed by no other write; nothing else is
// adopted, and nothing is sent again blind. Found or answered, each job goes to the tracker (IMPORT, EXPORT).
import * as assert from 'assert';
import type { AsyncJob } from '../../../src/api/types';
import type { ImportJob, ImportRequest, VolumeJobKind } from '../../../src/api/volumes';
import { jobRow } from '../../../src/jobs/jobRows';
import { statusSummary } from '../../../src/jobs/summary';
import { JobTracker, type NewJobInfo } from '../../../src/jobs/tracker';
import { FakeClock } from '../../support/fakeClock';
import { memoryState } from '../../support/sharedState';
import { asAsyncJob, exportedTo, trackedItem, volumeJobWriting, type VolumeJobsApi } from '../../../src/volumes/volumeJobWrite';
import { VOLUME_KINDS, volumeWrites, type ExportPayload, type ImportPayload, type VolumeWriteRecord } from '../../../src/volumes/volumeWrites';
import type { JobSnapshot } from '../../../src/write/asyncJobs';

const FOLDER = 'f'.repeat(24);
const credentials = { endpoint: 'https://api.example', token: 't' };
const item = (location: string, parent = FOLDER): ImportRequest => ({ source: { volume: 'rfranklin/sequencing_runs', location }, destination: { parent } });
const job = (id: string, it: ImportRequest): ImportJob => ({ id, state: 'PENDING', ...it });

function fakeJobs(jobs: ImportJob[]): VolumeJobsApi {
  return {
    listJobs: (async (_kind: VolumeJobKind, filter: { offset?: number; limit?: number } = {}) => {
      const from = filter.offset ?? 0;
      const page = jobs.slice(from, from + (filter.limit ?? 50));
      return { items: page, total: undefined, next: from + page.length < jobs.length ? 'next' : undefined };
    }) as VolumeJobsApi['listJobs'],
  } as VolumeJobsApi;
}

function fakeTracker(recorded = new Map<string, string | undefined>()) {
  const added: { job: AsyncJob; info: NewJobInfo }[] = [];
  const add = (j: AsyncJob, info: NewJobInfo) => (added.push({ job: j, info }), undefined as never);
  const addAll = (entries: readonly { job: AsyncJob; info: NewJobInfo }[]) => entries.map(({ job: j, info }) => add(j, info));
  return { added, tracker: { add, addAll, get: () => undefined, recordedWrites: () => recorded } };
}

const spec = (bulk: boolean) => VOLUME_KINDS.find((k) => k.type === 'IMPORT' && k.bulk === bulk)!;
const record = (payload: ImportPayload, snapshot?: JobSnapshot): VolumeWriteRecord & { snapshot: JobSnapshot } =>
  ({ id: 'w1', kind: 'volume.bulkImport', group: 'g1', account: 'a#me', payload, snapshot: snapshot ?? { before: [], complete: true } }) as never;

describe('import and export writes: found by difference', () => {
  it('finds the jobs made since the snapshot that match the items, one each; an item without one was refused', async () => {
    const a = item('runs/lane1/');
    const b = item('README.txt');
    const jobs = [job('OLD1', a)];
    const { tracker } = fakeTracker();
    const writing = volumeJobWriting(fakeJobs(jobs), tracker);
    const payload: ImportPayload = { items: [a, b], to: 'lane1', project: 'rfranklin/my-project' };
    const snapshot = await writing.snapshot(spec(true), record(payload), credentials);
    assert.deepStrictEqual(snapshot.before, ['OLD1']);
    // The lost call made a job for the first item only (the platform refused the second).
    jobs.unshift(job('NEW1', a), job('OTHER', item('README.txt', 'e'.repeat(24))));
    const found = await writing.find(spec(true), record(payload, snapshot), credentials, () => false);
    assert.ok('found' in found);
    assert.deepStrictEqual(found.found.jobs[0], { id: 'NEW1', state: 'PENDING' });
    assert.ok('error' in found.found.jobs[1]);
  });

  it('adopts no job claimed by another write or followed for another, nor one made before the snapshot: absent, never sent again', async () => {
    const a = item('samples.tsv');
    const jobs = [job('OLD', a)];
    const recorded = new Map([['TRACKED', 'w2']]);
    const writing = volumeJobWriting(fakeJobs(jobs), fakeTracker(recorded).tracker);
    const payload: ImportPayload = { items: [a], to: 'x', project: 'rfranklin/my-project' };
    const snapshot = await writing.snapshot(spec(false), record(payload), credentials);
    jobs.unshift(job('CLAIMED', a), job('TRACKED', a));
    const lookup = await writing.find(spec(false), record(payload, snapshot), credentials, (id) => id === 'CLAIMED');
    assert.ok('absent' in lookup, JSON.stringify(lookup));
    const kind = volumeWrites({ writing: async () => writing }).find((k) => k.name === 'volume.import')!;
    assert.strictEqual(kind.idempotent, false);
    assert.strictEqual(kind.identity.by, 'difference');
  });

  it('a snapshot or lookup that could not read the whole list does not say absent', async () => {
    const jobs = Array.from({ length: 2_500 }, (_, i) => job(`J${i}`, item(`o${i}`)));
    const writing = volumeJobWriting(fakeJobs(jobs), fakeTracker().tracker);
    const payload: ImportPayload = { items: [item('missing')], to: 'x', project: 'rfranklin/my-project' };
    const snapshot = await writing.snapshot(spec(false), record(payload), credentials);
    assert.strictEqual(snapshot.complete, false);
    assert.ok('unknown' in (await writing.find(spec(false), record(payload, snapshot), credentials, () => false)));
  });

  it('hands each job made to the tracker as an IMPORT of one item, in the write\'s group; a refused item makes none', async () => {
    const { added, tracker } = fakeTracker();
    const writing = volumeJobWriting(fakeJobs([]), tracker);
    const payload: ImportPayload = { items: [item('runs/lane1/'), item('README.txt')], to: 'lane1', project: 'rfranklin/my-project' };
    writing.finish(spec(true), record(payload), { jobs: [{ id: 'J1', state: 'PENDING' }, { error: { code: 9007, message: 'no volume' } }] }, true);
    assert.strictEqual(added.length, 1);
    assert.strictEqual(added[0].info.type, 'IMPORT');
    assert.strictEqual(added[0].info.group, 'g1');
    assert.strictEqual(added[0].info.adopted, true);
    assert.deepStrictEqual(added[0].info.items, [{ file: 'rfranklin/sequencing_runs/runs/lane1/', parent: FOLDER }]);
    assert.deepStrictEqual(added[0].info.destination, { label: 'lane1', project: 'rfranklin/my-project', parent: FOLDER });
  });

  it('one snapshot serves the calls on a volume for 10 s (a bulk import\'s 100 calls): the list is read again after that, or for another volume', async () => {
    let lists = 0;
    const api = fakeJobs([job('OLD1', item('a'))]);
    const counting = { ...api, listJobs: ((...args: Parameters<VolumeJobsApi['listJobs']>) => (lists++, api.listJobs(...args))) as VolumeJobsApi['listJobs'] };
    const clock = new FakeClock();
    const writing = volumeJobWriting(counting, fakeTracker().tracker, clock);
    const payload = (location: string, volume?: string): ImportPayload => ({ items: [{ ...item(location), ...(volume ? { source: { volume, location } } : {}) }], to: 'lane1', project: 'rfranklin/my-project' });
    const first = await writing.snapshot(spec(true), record(payload('x1')), credentials);
    clock.advance(9_000);
    const second = await writing.snapshot(spec(true), record(payload('x2')), credentials);
    assert.deepStrictEqual([lists, second], [1, first]);
    await writing.snapshot(spec(true), record(payload('x3', 'rfranklin/other_volume')), credentials);
    assert.strictEqual(lists, 2, 'another volume: its own list');
    clock.advance(2_000);
    await writing.snapshot(spec(true), record(payload('x4')), credentials);
    assert.strictEqual(lists, 3, 'older than 10 s: read again');
  });

  it('a bulk import\'s jobs reach the tracker\'s stored state in one write, not one a job (a save writes every job: 10,000 objects cost the square)', () => {
    const state = memoryState();
    const tracker = new JobTracker({ get: () => Promise.reject(new Error('not asked')), list: () => Promise.reject(new Error('not asked')) }, state, new FakeClock(), { account: () => 'a#me', maxJobs: 1_000 });
    const writing = volumeJobWriting(fakeJobs([]), tracker);
    const items = Array.from({ length: 100 }, (_, i) => item(`runs/obj_${i}.fastq.gz`));
    const before = state.writes;
    writing.finish(spec(true), record({ items, to: 'lane1', project: 'rfranklin/my-project' }), { jobs: items.map((_, i) => ({ id: `J${i}`, state: 'PENDING' as const })) }, false);
    assert.strictEqual(tracker.all().length, 100, 'every job followed');
    assert.strictEqual(state.writes - before, 1, 'stored once');
    tracker.dispose();
  });

  it('reads a volume job as the tracker follows jobs: one item, FINISHED with its file or its error', () => {
    const done = asAsyncJob({ id: 'J', state: 'COMPLETED', result: { href: '', id: 'x'.repeat(24), name: 'a.txt' } }, 'IMPORT');
    assert.deepStrictEqual([done.state, done.result?.[0].resource?.name], ['FINISHED', 'a.txt']);
    const failed = asAsyncJob({ id: 'J', state: 'FAILED', error: { status: 409, code: 9108, message: 'Requested file already exists.' } }, 'IMPORT');
    assert.deepStrictEqual([failed.state, failed.result?.[0].error?.code], ['FINISHED', 9108]);
    assert.strictEqual(asAsyncJob({ id: 'J', state: 'PENDING' }, 'EXPORT').state, 'SUBMITTED');
  });

  it('a prefix of 30 objects imported reads as the one item it is in Data Jobs, never as "1/1 files"', () => {
    const tracker = new JobTracker({ get: () => Promise.reject(new Error('not asked')), list: () => Promise.reject(new Error('not asked')) }, memoryState(), new FakeClock(), { account: () => 'a#me' });
    const info: NewJobInfo = { type: 'IMPORT', items: [{ file: 'rfranklin/sequencing_runs/runs/lane1/', parent: FOLDER }], destination: { label: 'rfranklin/p › fastq', project: 'rfranklin/p', parent: FOLDER }, sourceNames: {} };
    const running = tracker.add(asAsyncJob({ id: 'R', state: 'RUNNING' }, 'IMPORT'), info);
    assert.strictEqual(jobRow(running, 0).label, 'Import · running · 1 item');
    assert.strictEqual(statusSummary(tracker.all(), []).words, 'Data jobs: 1 running…');
    const lane1 = { href: '', id: 'd'.repeat(24), name: 'lane1', type: 'folder' };
    const done = tracker.add(asAsyncJob({ id: 'D', state: 'COMPLETED', result: lane1 }, 'IMPORT'), info);
    const row = jobRow(done, 0);
    assert.deepStrictEqual([row.label, row.tooltip.split('\n')[1]], ['Import · finished · 1/1 item', 'Job D: done, 1 item imported']);
    tracker.dispose();
  });

  it('an export job tells the volume and the object it writes (its volume\'s listings change); an import job none', () => {
    const file = 'a'.repeat(24);
    const payload: ExportPayload = { items: [{ source: { file }, destination: { volume: 'rfranklin/analysis_results', location: 'results/run: 2/a.vcf' } }], copyOnly: true, names: { [file]: 'a.vcf' }, projects: { [file]: 'rfranklin/p' } };
    assert.deepStrictEqual(exportedTo({ type: 'EXPORT', ...trackedItem(payload, 0) }), { volume: 'rfranklin/analysis_results', location: 'results/run: 2/a.vcf' });
    assert.strictEqual(exportedTo({ type: 'IMPORT', ...trackedItem({ items: [item('runs/lane1/')], to: 'fastq', project: 'rfranklin/p' }, 0) }), undefined);
  });

  it('Retry Failed Items makes a single import of a failed item, from its volume and location', async () => {
    const writing = volumeJobWriting(fakeJobs([]), fakeTracker().tracker);
    const kind = volumeWrites({ writing: async () => writing }).find((k) => k.name === 'volume.import')!;
    const payload = await kind.retry!([{ file: 'rfranklin/sequencing_runs/runs/a b/x.fastq.gz', parent: FOLDER }], {}, { destination: { label: 'lane1', project: 'rfranklin/my-project', parent: FOLDER } });
    assert.deepStrictEqual(payload, { items: [{ source: { volume: 'rfranklin/sequencing_runs', location: 'runs/a b/x.fastq.gz' }, destination: { parent: FOLDER } }], to: 'lane1', project: 'rfranklin/my-project' });
    assert.ok(kind.isPayload(payload));
  });

  it('Retry Failed Items sends a failed import again with the choices it was sent with: the job keeps them', async () => {
    const { added, tracker } = fakeTracker();
    const writing = volumeJobWriting(fakeJobs([]), tracker);
    const kind = volumeWrites({ writing: async () => writing }).find((k) => k.name === 'volume.import')!;
    const asked = [
      { ...item('runs/lane1/'), overwrite: true, preserve_folder_structure: false },
      { ...item('README.txt'), autorename: true },
      item('notes.txt'),
    ];
    for (const [i, sent] of asked.entries()) {
      const payload: ImportPayload = { items: [sent], to: 'lane1', project: 'rfranklin/my-project' };
      writing.finish(spec(false), record(payload), { jobs: [{ id: `J${i}`, state: 'FAILED' }] }, false);
      const { items, destination, choices } = added[i].info;
      assert.deepStrictEqual(await kind.retry!(items, {}, { destination, choices }), payload, `${sent.source.location}: the same item, the same choices`);
    }
    assert.deepStrictEqual(added.map((a) => a.info.choices), [{ onClash: 'overwrite', keepFolders: false }, { onClash: 'autorename' }, { onClash: 'fail' }]);
  });

  it('Retry Failed Items sends a failed export again copy-only or not, as it was sent; a job of an older version without its choices copy-only', async () => {
    const { added, tracker } = fakeTracker();
    const writing = volumeJobWriting(fakeJobs([]), tracker);
    const kind = volumeWrites({ writing: async () => writing }).find((k) => k.name === 'volume.export')!;
    const exportSpec = VOLUME_KINDS.find((k) => k.type === 'EXPORT' && !k.bulk)!;
    const file = 'e'.repeat(24);
    const payload: ExportPayload = { items: [{ source: { file }, destination: { volume: 'rfranklin/results', location: 'out/a.vcf' } }], copyOnly: false, names: { [file]: 'a.vcf' }, projects: { [file]: 'rfranklin/my-project' } };
    writing.finish(exportSpec, record(payload as never), { jobs: [{ id: 'E1', state: 'FAILED' }] }, false);
    const { items, destination, choices } = added[0].info;
    assert.deepStrictEqual(choices, { copyOnly: false });
    assert.deepStrictEqual(await kind.retry!(items, { [file]: 'a.vcf' }, { destination, choices }), { ...payload, names: { [file]: 'a.vcf' } });
    assert.strictEqual(((await kind.retry!(items, { [file]: 'a.vcf' }, { destination })) as ExportPayload).copyOnly, true);
  });
});
