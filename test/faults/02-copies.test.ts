// 2. No copy lost or doubled: a POST whose answer is lost is reported as "may have been submitted", looked for
// with GET /v2/async/files before anything is sent again, and adopted when found. 500s, drops, 429s and
// maintenance on the POST too. The emulator's record of received copy requests is compared with what was asked.
import * as assert from 'assert';
import type { CopyItem } from '../../src/api/types';
import { planCopy } from '../../src/copy/request';
import { copySetup, logSince, settle, untilFinished, type CopySetup, type PostFault } from './copyKit';
import { accountCopies, note, record } from './support';

describe('2. copies: none lost, none doubled', function () {
  this.timeout(60_000);
  const setups: CopySetup[] = [];
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
