// 2. No copy lost or doubled: a POST whose answer is lost is reported as "may have been submitted", looked for
// with GET /v2/async/files before anything is sent again, and adopted when found. 500s, drops, 429s and
// maintenance on the POST too. The emulator's record of received copy requests is compared with what was asked.
import * as assert from 'assert';
import nodeFetch from 'node-fetch';
import { ApiError, describeError } from '../../src/api/errors';
import type { FetchLike } from '../../src/api/transport';
import type { CopyItem } from '../../src/api/types';
import { planCopy } from '../../src/copy/request';
import { CopySubmitter, type SubmissionReport } from '../../src/jobs/submitter';
import { JobTracker, type JobDestination } from '../../src/jobs/tracker';
import type { FileRec } from '../emulator';
import { accountCopies, makeClient, makeEmulator, MemoryMemento, note, record, shown, sleep, waitFor } from './support';

type PostFault = 'error500' | 'drop' | 'burst429' | 'maintenance' | 'lose' | 'garble';

/** A copy setup: emulator, client whose next POST can be given a fault, tracker and submitter on one store. */
export async function copySetup(options: { faults?: { error500Rate?: number; dropRate?: number }; copyStepMs?: number } = {}) {
  const emu = await makeEmulator({ copyStepMs: options.copyStepMs ?? 30, faults: options.faults });
  const postFaults: PostFault[] = [];
  const fetch: FetchLike = async (url, init) => {
    const fault = init.method === 'POST' ? postFaults.shift() : undefined;
    if (!fault) return nodeFetch(url, init);
    const saved = { ...emu.faults };
    if (fault === 'error500') Object.assign(emu.faults, { error500Rate: 1, dropRate: 0 });
    if (fault === 'drop') Object.assign(emu.faults, { dropRate: 1 });
    if (fault === 'garble') Object.assign(emu.faults, { error500Rate: 0, dropRate: 0, malformedRate: 1 });
    if (fault === 'burst429') emu.burst429(1, 1);
    if (fault === 'maintenance') emu.maintenance(60_000);
    if (fault === 'lose') {
      Object.assign(emu.faults, { error500Rate: 0, dropRate: 0 });
      emu.loseNextCopyResponse();
    }
    try {
      return await nodeFetch(url, init);
    } finally {
      Object.assign(emu.faults, saved);
      if (fault === 'maintenance') emu.maintenance(0);
    }
  };
  const client = makeClient(emu.baseUrl, { fetch });
  const store = new MemoryMemento();
  const trackerOptions = { firstDelayMs: 20, intervalMs: 40, maxIntervalMs: 200 };
  const tracker = new JobTracker(client.copyJobs, store, undefined, trackerOptions);
  const submitter = new CopySubmitter(client.copyJobs, tracker, store);
  const project = emu.data.projects.find((p) => p.permissions.write)!;
  const destination: JobDestination = { label: project.name, project: project.id };
  const sources = emu.data.files.filter((f: FileRec) => f.parent !== null && f.type === 'file');
  return { emu, client, store, tracker, submitter, postFaults, destination, sources, trackerOptions };
}

/** Requests the emulator saw for POST /async/files/copy (processed or not) and GET /async/files, from the client's log. */
function logSince(mark: number): string[] {
  return record.logEntries.slice(mark).map((e) => `${e.method} ${e.path.split('?')[0]}`);
}

/**
 * What the copy command does with a failed call (copy/flow.ts, without the UI): a call that may have been
 * delivered is looked for on the platform first, adopted when found, offered again only when not; a call that
 * was not delivered is offered again at once (after the rate limit's reset). Returns the messages shown.
 */
export async function settle(
  setup: Awaited<ReturnType<typeof copySetup>>,
  first: SubmissionReport,
  where: string,
): Promise<{ messages: string[]; adopted: number; checks: number }> {
  const { submitter, emu } = setup;
  const messages: string[] = [];
  let report = first;
  let adopted = 0;
  let checks = 0;
  for (let round = 0; report.failed && round < 30; round++) {
    const { pending, error, maybeDelivered } = report.failed;
    const items = `${pending.items.length} ${pending.items.length === 1 ? 'item' : 'items'}`;
    if (!maybeDelivered) {
      // "the copy to X (N items) was not submitted: <why>" with Submit Again / Discard.
      messages.push(shown(`${where}: not submitted`, `The copy to ${pending.destination.label} (${items}) was not submitted: ${describeError(error)}`, ['Submit Again']));
      if (error instanceof ApiError && error.isRateLimited && error.resetAt) await sleep(Math.max(0, error.resetAt * 1000 + 1100 - Date.now()));
      report = await submitter.resubmit(report.group);
      continue;
    }
    // "may have been submitted": checked against GET /v2/async/files before anything is offered.
    messages.push(shown(`${where}: may have been submitted`, `The copy to ${pending.destination.label} (${items}) may have been submitted: ${describeError(error)}`, ['Check and Submit Again']));
    assert.ok(pending.maybeDelivered, 'the pending call is marked "may have been submitted"');
    const posts = emu.copyRequests.length + emu.unprocessedCopyRequests.length;
    const mark = record.logEntries.length;
    let check: Awaited<ReturnType<CopySubmitter['findDelivered']>>;
    try {
      check = await submitter.findDelivered(pending);
    } catch (checkError) {
      messages.push(shown(`${where}: check failed`, `Could not check the platform's copy jobs (${describeError(checkError)}); it is kept until it can be checked.`, ['Check and Submit Again']));
      continue;
    }
    checks++;
    assert.ok(logSince(mark).includes('GET /v2/async/files'), `${where}: the check asks GET /v2/async/files`);
    assert.strictEqual(emu.copyRequests.length + emu.unprocessedCopyRequests.length, posts, `${where}: the check sends no POST`);
    assert.notStrictEqual(check.kind, 'ambiguous', `${where}: the check is not ambiguous`);
    if (check.kind === 'found') {
      await submitter.adopt(pending, check.job);
      adopted++;
      if (!submitter.group(report.group).length) {
        report = { ...report, failed: undefined, notSent: [] };
        break;
      }
      report = await submitter.resubmit(report.group);
      continue;
    }
    messages.push(shown(`${where}: not received`, `No new copy job was found on the platform, so it was not received.`, ['Submit Again']));
    report = await submitter.resubmit(report.group);
  }
  assert.strictEqual(report.failed, undefined, `${where}: every call went through`);
  return { messages, adopted, checks };
}

async function untilFinished(setup: Awaited<ReturnType<typeof copySetup>>, where: string): Promise<void> {
  await waitFor(`${where}: every job FINISHED with its results`, () => setup.tracker.all().every((j) => j.state === 'FINISHED' && (j.result?.length ?? 0) === j.items.length), 30_000);
}

describe('2. copies: none lost, none doubled', function () {
  this.timeout(60_000);
  const setups: Awaited<ReturnType<typeof copySetup>>[] = [];
  const setup = async (options?: Parameters<typeof copySetup>[0]) => {
    const s = await copySetup(options);
    setups.push(s);
    return s;
  };
  afterEach(() => {
    for (const s of setups.splice(0)) {
      s.tracker.dispose();
      s.submitter.dispose();
    }
  });

  it('a lost answer is reported as "may have been submitted", found with GET /v2/async/files and adopted, never sent twice', async () => {
    const s = await setup();
    const items: CopyItem[] = s.sources.slice(0, 3).map((f) => ({ file: f.id, project: s.destination.project }));
    s.postFaults.push('lose');
    const report = await s.submitter.submitAll([items], { destination: s.destination });

    assert.ok(report.failed, 'the call is reported as failed');
    assert.strictEqual(report.failed.maybeDelivered, true, 'and as maybe delivered');
    assert.strictEqual(s.emu.copyRequests.length, 1, 'the emulator received and processed it');
    assert.strictEqual(s.emu.copyRequests[0].responseLost, true);
    const pending = s.submitter.list();
    assert.strictEqual(pending.length, 1, 'kept as pending');
    assert.strictEqual(pending[0].maybeDelivered, true);

    const result = await settle(s, report, 'lost answer');
    assert.match(result.messages[0], /may have been submitted: Cannot reach the platform \(ECONNRESET\)\. Check your connection and the API endpoint\.$/);
    assert.deepStrictEqual([result.checks, result.adopted], [1, 1]);
    assert.strictEqual(s.emu.copyRequests.length, 1, 'not sent again');
    const job = s.tracker.get(s.emu.copyRequests[0].jobId!)!;
    assert.ok(job && job.adopted, 'the job on the platform is followed');
    assert.strictEqual(s.submitter.list().length, 0, 'nothing left to submit');
    await untilFinished(s, 'lost answer');
    const figures = accountCopies(s.emu, items);
    note(`lost answer: requested ${figures.requested}, received ${figures.received}, lost ${figures.lost}, doubled ${figures.doubled}; job ${job.id} adopted and FINISHED`);
    assert.deepStrictEqual([figures.lost, figures.doubled], [0, 0]);
  });

  it('"Submit Again" after a lost answer checks first and adopts the job instead of sending it again', async () => {
    const s = await setup();
    const items: CopyItem[] = s.sources.slice(3, 5).map((f) => ({ file: f.id, project: s.destination.project }));
    s.postFaults.push('lose');
    const report = await s.submitter.submitAll([items], { destination: s.destination });
    assert.strictEqual(report.failed?.maybeDelivered, true);
    const mark = record.logEntries.length;
    const again = await s.submitter.resubmit(report.group);
    assert.strictEqual(again.failed, undefined);
    assert.deepStrictEqual(logSince(mark).filter((l) => l.startsWith('POST')), [], 'no POST');
    assert.ok(logSince(mark).includes('GET /v2/async/files'));
    assert.strictEqual(again.submitted[0].adopted, true);
    await untilFinished(s, 'submit again');
    const figures = accountCopies(s.emu, items);
    assert.deepStrictEqual([figures.lost, figures.doubled], [0, 0]);
  });

  it('a 500, a dropped connection, a garbled answer, a 429 and maintenance on the POST: each copy arrives exactly once', async () => {
    const s = await setup();
    const cases: { fault: PostFault; maybe: boolean; says: RegExp }[] = [
      { fault: 'error500', maybe: true, says: /may have been submitted: An unexpected error occurred\. \(HTTP 500, code 90004\)\.$/ },
      { fault: 'drop', maybe: true, says: /may have been submitted: Cannot reach the platform \(ECONNRESET\)\. Check your connection/ },
      { fault: 'garble', maybe: true, says: /may have been submitted: The platform sent an answer that cannot be read \(the answer to POST \/v2\/async\/files\/copy is not JSON\)\.$/ },
      { fault: 'burst429', maybe: false, says: /was not submitted: The platform's rate limit .* It resets at .+\. Try again then\.$/ },
      { fault: 'maintenance', maybe: false, says: /was not submitted: The platform is under maintenance\. Try again later\.$/ },
    ];
    let offset = 10;
    const all: CopyItem[] = [];
    const lines: string[] = [];
    for (const c of cases) {
      const items: CopyItem[] = s.sources.slice(offset, offset + 2).map((f) => ({ file: f.id, project: s.destination.project }));
      offset += 2;
      all.push(...items);
      s.postFaults.push(c.fault);
      const report = await s.submitter.submitAll([items], { destination: s.destination });
      assert.strictEqual(report.failed?.maybeDelivered, c.maybe, `${c.fault}: maybeDelivered`);
      const result = await settle(s, report, c.fault);
      assert.match(result.messages[0], c.says, c.fault);
      lines.push(`${c.fault}: ${c.maybe ? `checked (${result.adopted ? 'found, adopted' : 'not found, sent again'})` : 'sent again'}`);
    }
    await untilFinished(s, 'faults on the POST');
    const figures = accountCopies(s.emu, all);
    note(lines.join('; '));
    note(`faults on the POST: requested ${figures.requested}, received ${figures.received}, lost ${figures.lost}, doubled ${figures.doubled}`);
    assert.deepStrictEqual([figures.received, figures.lost, figures.doubled], [all.length, 0, 0]);
  });

  it('30 copies (split in calls of 3 items) under 10% 500s, 5% drops and lost answers: every item received exactly once', async () => {
    const s = await setup({ faults: { error500Rate: 0.1, dropRate: 0.05 } });
    const requested: CopyItem[] = [];
    let calls = 0;
    let adopted = 0;
    let checks = 0;
    let messages = 0;
    for (let n = 0; n < 30; n++) {
      const ids = s.sources.slice(40 + n * 7, 40 + n * 7 + 1 + (n % 7)).map((f) => f.id);
      const plan = planCopy({ sources: ids, destination: { kind: 'projectRoot', project: s.destination.project }, maxItemsPerRequest: 3 });
      assert.ok(plan.ok);
      requested.push(...plan.items);
      calls += plan.batches.length;
      if (n % 4 === 1) s.postFaults.push('lose');
      const report = await s.submitter.submitAll(plan.batches, { destination: s.destination });
      const result = await settle(s, report, `copy ${n + 1}`);
      adopted += result.adopted;
      checks += result.checks;
      messages += result.messages.length;
    }
    await untilFinished(s, 'random faults');
    const figures = accountCopies(s.emu, requested);
    const st = s.emu.stats;
    note(`30 copies, ${calls} calls: ${st.faultsInjected} faults in ${st.requests} requests (${st.byStatus[500] ?? 0} × 500, ${st.byStatus[0] ?? 0} dropped incl. lost answers); ` +
      `${messages} messages, ${checks} checks of GET /v2/async/files, ${adopted} jobs adopted`);
    note(`requested ${figures.requested} items, received ${figures.received}, lost ${figures.lost}, doubled ${figures.doubled}; ` +
      `POSTs stopped before processing: ${s.emu.unprocessedCopyRequests.length}`);
    assert.ok(adopted >= 7, 'the lost answers were found and adopted');
    assert.deepStrictEqual([figures.received, figures.lost, figures.doubled], [requested.length, 0, 0]);
    for (const job of s.tracker.all()) assert.ok(job.result!.every((r) => r.resource), `job ${job.id}: every item copied`);
  });
});
