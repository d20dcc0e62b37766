// 2. No copy lost or doubled: a POST whose answer is lost is looked up on the platform (GET /v2/async/files,
// no POST in between) and its job adopted; after a 429 or maintenance (proof the call was not processed) it is
// sent again by itself once the wait is over; a 500, a dropped connection, a garbled answer or a proxy's 503 are
// looked up first. The emulator's record of received copy requests is compared with what was asked.
import * as assert from 'assert';
import type { CopyItem } from '../../src/api/types';
import { planCopy } from '../../src/copy/request';
import { copySetup, isWritePost, logSince, untilFinished, type CopySetup, type PostFault } from './copyKit';
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
    for (const s of setups.splice(0)) s.window.dispose();
  });

  it('a lost answer is told as "may have been submitted", found with GET /v2/async/files and adopted, never sent twice', async () => {
    const s = await setup();
    const items: CopyItem[] = s.sources.slice(0, 3).map((f) => ({ file: f.id, project: s.destination.project }));
    s.postFaults.push('lose');
    const mark = record.logEntries.length;
    const sent = await s.window.send([items], s.destination, 'lost answer');

    assert.strictEqual(s.emu.copyRequests.length, 1, 'the emulator received and processed it');
    assert.strictEqual(s.emu.copyRequests[0].responseLost, true);
    assert.deepStrictEqual(sent.left.map((r) => r.state), ['unsure'], 'kept, as may have been submitted');
    assert.match(sent.tellings[0].text, /^The platform did not answer the copy of \d+ items to .+\. The connection to the platform was reset before it answered\. Checking whether it arrived before sending anything again: nothing to do\.$/);

    await s.window.drained(sent.group, 'lost answer');
    const job = s.tracker.get(s.emu.copyRequests[0].jobId!)!;
    assert.ok(job && job.adopted, 'the job on the platform is followed, marked as found after a lost answer');
    const after = logSince(mark);
    assert.deepStrictEqual(after.filter(isWritePost), ['POST /v2/async/files/copy'], 'one write in all');
    assert.ok(after.lastIndexOf('GET /v2/async/files') > after.indexOf('POST /v2/async/files/copy'), 'looked up with GET /v2/async/files');
    await untilFinished(s.tracker, 'lost answer');
    const figures = accountCopies(s.emu, items);
    s.accountCalls();
    note(`lost answer: requested ${figures.requested}, received ${figures.received}, lost ${figures.lost}, doubled ${figures.doubled}; job ${job.id} adopted and FINISHED`);
    assert.deepStrictEqual([figures.lost, figures.doubled], [0, 0]);
  });

  it('a 500, a dropped connection, a garbled answer, a proxy 503, a 429 and maintenance on the POST: each copy arrives exactly once', async () => {
    const s = await setup();
    const cases: { fault: PostFault; says: RegExp }[] = [
      { fault: 'error500', says: /did not answer the copy of .+\. An unexpected error occurred\. \(HTTP 500, code 90004\)\. Checking whether it arrived/ },
      { fault: 'drop', says: /did not answer the copy of .+\. The connection to the platform was reset before it answered\. Checking whether it arrived/ },
      { fault: 'garble', says: /did not answer the copy of .+\. The platform sent an answer that cannot be read \(the answer to POST \/v2\/async\/files\/copy is not JSON\)\. Checking whether it arrived/ },
      { fault: 'proxy503', says: /did not answer the copy of .+\. HTTP 503: <html><body>503 Service Unavailable<\/body><\/html> \(HTTP 503\)\. Checking whether it arrived/ },
      { fault: 'burst429', says: /was not sent yet: The platform's rate limit is used up\. It is sent by itself at .+; nothing to do\.$/ },
      { fault: 'maintenance', says: /was not sent yet: The platform is under maintenance\. It is sent by itself at .+; nothing to do\.$/ },
    ];
    let offset = 10;
    const all: CopyItem[] = [];
    const lines: string[] = [];
    for (const c of cases) {
      const items: CopyItem[] = s.sources.slice(offset, offset + 2).map((f) => ({ file: f.id, project: s.destination.project }));
      offset += 2;
      all.push(...items);
      s.postFaults.push(c.fault);
      const processedBefore = s.emu.copyRequests.length;
      const resubmitsBefore = s.window.userResubmits;
      const sent = await s.window.send([items], s.destination, c.fault);
      assert.strictEqual(sent.tellings.length, 1, `${c.fault}: one message`);
      assert.match(sent.tellings[0].text, c.says, c.fault);
      await s.window.drained(sent.group, c.fault);
      const processed = s.emu.copyRequests.length - processedBefore;
      assert.strictEqual(processed, 1, `${c.fault}: processed once`);
      const then = s.window.finished.at(-1)!.found ? 'found and adopted' : s.window.userResubmits > resubmitsBefore ? 'not found, submitted again by the person' : 'sent again by itself';
      lines.push(`${c.fault}: ${sent.left[0].state}, then ${then}`);
    }
    await untilFinished(s.tracker, 'faults on the POST');
    const figures = accountCopies(s.emu, all);
    s.accountCalls();
    note(lines.join('; '));
    note(`faults on the POST: requested ${figures.requested}, received ${figures.received}, lost ${figures.lost}, doubled ${figures.doubled}`);
    assert.deepStrictEqual([figures.received, figures.lost, figures.doubled], [all.length, 0, 0]);
  });

  it('30 copies (split in calls of 3 items) under 10% 500s, 5% drops and lost answers: every item received exactly once', async function () {
    // A call the platform did not process waits for the person after the late window (3 s here): Submit Again.
    this.timeout(150_000);
    const s = await setup({ faults: { error500Rate: 0.1, dropRate: 0.05 } });
    const requested: CopyItem[] = [];
    let calls = 0;
    let told = 0;
    for (let n = 0; n < 30; n++) {
      const ids = s.sources.slice(40 + n * 7, 40 + n * 7 + 1 + (n % 7)).map((f) => f.id);
      const plan = planCopy({ sources: ids, destination: { kind: 'projectRoot', project: s.destination.project }, maxItemsPerRequest: 3 });
      assert.ok(plan.ok);
      requested.push(...plan.items);
      calls += plan.batches.length;
      if (n % 4 === 1) s.postFaults.push('lose');
      const sent = await s.window.send(plan.batches, s.destination, `copy ${n + 1}`);
      told += sent.tellings.length;
      await s.window.drained(sent.group, `copy ${n + 1}`, 30_000);
    }
    await untilFinished(s.tracker, 'random faults');
    const figures = accountCopies(s.emu, requested);
    s.accountCalls();
    const adopted = s.window.finished.filter((f) => f.found).length;
    const st = s.emu.stats;
    note(`30 copies, ${calls} calls: ${st.faultsInjected} faults in ${st.requests} requests (${st.byStatus[500] ?? 0} × 500, ${st.byStatus[0] ?? 0} dropped incl. lost answers); ` +
      `${told} messages, ${adopted} jobs found after a lost answer and adopted, ${s.window.userResubmits} not found after the late window and submitted again by the person`);
    note(`requested ${figures.requested} items, received ${figures.received}, lost ${figures.lost}, doubled ${figures.doubled}; ` +
      `POSTs stopped before processing: ${s.emu.unprocessedCopyRequests.length}`);
    assert.ok(adopted >= 7, 'the lost answers were found and adopted');
    assert.deepStrictEqual([figures.received, figures.lost, figures.doubled], [requested.length, 0, 0]);
    for (const job of s.tracker.all()) assert.ok(job.result!.every((r) => r.resource), `job ${job.id}: every item copied`);
  });
});
