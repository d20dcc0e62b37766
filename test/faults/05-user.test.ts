// 5. Bad input from the user: malformed IDs, timestamps, project IDs, endpoints, tokens, 10,000 pasted IDs.
// Each is answered with a clear message, and nothing the API would reject is sent: the emulator counts the
// requests, and a refused value costs none.
import * as assert from 'assert';
import { checkEndpoint } from '../../src/api/endpoint';
import { ApiError } from '../../src/api/errors';
import { isProjectId } from '../../src/api/ids';
import { parseFilterTimestamp } from '../../src/api/timestamps';
import { checkToken, checkTokenShape } from '../../src/auth/tokenCheck';
import { splitIdText } from '../../src/copy/extract';
import { destinationProblem, nameProblem, planCopy } from '../../src/copy/request';
import { checkRange, FilterModel, TIME_FIELDS } from '../../src/tasks/filterModel';
import type { Emulator } from '../emulator';
import { copySetup, untilFinished } from './copyKit';
import { accountCopies, makeClient, makeEmulator, note, record, recordedState, shown, shownError, TOKEN } from './support';

/** A refusal names what is expected (the shape of an ID, the forms of a time) or what to change. */
const SAYS_WHAT_IS_EXPECTED = /does not exist( in [\d-]+)? \(|is not a time-zone offset \(|\(a UUID\)|\(24 hex digits\)|\(digits\)|\(owner\/project\)|one of |Expected |needs|must|Use https|Give |is after|usually|Paste |has no spaces|only letters|copy the files|not accepted|cannot be copied into itself|at most|cannot contain|not a usable name/;

function refused(where: string, text: string): string {
  assert.match(text, SAYS_WHAT_IS_EXPECTED, `${where}: "${text}" does not say what is expected`);
  return shown(where, text, ['Retry']);
}

describe('5. bad input from the user: a clear message, and nothing sent', function () {
  this.timeout(60_000);
  let emu: Emulator;
  let client: ReturnType<typeof makeClient>;
  let refusals = 0;
  let sentForRefusals = 0;

  before(async () => {
    emu = await makeEmulator({ tasks: 50, files: 200 });
    client = makeClient(emu.baseUrl);
  });
  after(() => note(`${refusals} refusals of user input, ${sentForRefusals} requests reached the emulator for them`));

  /** Runs `work`, which must send nothing at all to the emulator. */
  async function sendsNothing(where: string, work: () => Promise<void>): Promise<void> {
    const before = emu.stats.requests;
    await work();
    sentForRefusals += emu.stats.requests - before;
    assert.strictEqual(emu.stats.requests - before, 0, `${where}: no request reached the platform`);
  }

  async function rejectsInvalid(where: string, call: () => Promise<unknown>): Promise<string> {
    let text = '';
    await sendsNothing(where, async () => {
      await assert.rejects(call(), (e: unknown) => {
        assert.ok(e instanceof ApiError && e.kind === 'invalid', `${where}: refused before sending (${String(e)})`);
        text = shownError(where, e, ['Retry']);
        return true;
      });
    });
    refusals++;
    return refused(where, text);
  }

  it('malformed task, file, folder and job IDs', async () => {
    const bad = ['', 'not-an-id', '12345', 'bd5e95d9-12b3-789c-45b6', 'bd5e95d9-12b3-789c-45b6-34d8696571a9/../x', 'g'.repeat(24), '../../user', '%2e%2e', 'a'.repeat(25)];
    for (const id of bad) {
      await rejectsInvalid(`task ID "${id}"`, () => client.tasks.get(id));
      await rejectsInvalid(`file ID "${id}"`, () => client.files.get(id));
      await rejectsInvalid(`folder ID "${id}"`, () => client.files.list({ parent: id }));
      await rejectsInvalid(`batch parent "${id}"`, () => client.tasks.list({ parent: id }));
      if (!/^\d+$/.test(id)) await rejectsInvalid(`job ID "${id}"`, () => client.copyJobs.get(id));
    }
    await rejectsInvalid('task status "DONE"', () => client.tasks.list({ status: 'DONE' as never }));
    await rejectsInvalid('order_by "size"', () => client.tasks.list({ order_by: 'size' as never }));
    await rejectsInvalid('order without order_by', () => client.tasks.list({ order: 'asc' }));
  });

  it('malformed timestamps: each refused with what is wrong, none sent', async () => {
    const bad: [string, RegExp][] = [
      ['', /^Empty\. Expected/],
      ['yesterday', /is not a date/],
      ['2026-13-01', /Month 13 does not exist/],
      ['2026-02-30', /Day 30 does not exist in 2026-02/],
      ['2026-02-03T25:00:00', /Hour 25 does not exist/],
      ['2026-02-03T10:61:00', /Minute 61/],
      ['2026-02-03T10:00:00Z', /trailing Z is not accepted/],
      ['2026-02-03 10:00:00', /Separate the date and the time with T/],
      ['2026-2-3', /two digits each/],
      ['2026-02-03T10:00', /Seconds are required/],
      ['2026-02-03T10:00:00+0100', /needs a colon/],
      ['2026-02-03T10:00:00+01', /needs minutes too/],
      ['2026-02-03T10:00:00.123', /Fractions of a second/],
      ['2026-02-03T10:00:00+15:00', /not a time-zone offset/],
      ["2026-02-03'; DROP TABLE tasks", /Unexpected text after "2026-02-03"/],
    ];
    for (const [value, says] of bad) {
      const check = parseFilterTimestamp(value);
      assert.ok(!check.ok, `"${value}" refused`);
      assert.match(check.reason, says, value);
      refused(`timestamp "${value}"`, check.reason);
      for (const bound of ['created_from', 'started_to', 'ended_from'] as const) {
        await rejectsInvalid(`${bound}="${value}"`, () => client.tasks.list({ [bound]: value }));
      }
    }
    // A custom range checked as it is typed; a stored range that does not check out is dropped, never sent.
    refused('range from after to', checkRange('2026-03-02', '2026-03-01')!);
    refused('range with nothing', checkRange('', ' ')!);
    refused('range with a bad end', checkRange('2026-03-01', '2026-03-32')!);
    const memento = recordedState();
    await memento.update('sevenbridges.tasks.filter', { created: { from: '2026-13-01' }, started: { from: '2026-03-02', to: '2026-03-01' }, project: '../..' });
    const filter = new FilterModel(memento);
    assert.deepStrictEqual(filter.filter, {}, 'a stored filter that does not check out is dropped');
    for (const field of TIME_FIELDS) assert.strictEqual(filter.query('RUNNING', Date.now())[`${field}_from`], undefined);
  });

  it('malformed project IDs', async () => {
    const bad = ['', 'owner', 'a/b/c', '../..', 'a/..', '../b', ' a/b', 'a b/c', 'a/b?x=1', 'a%2Fb', 'a/b#c', '/a', 'a/'];
    for (const project of bad) {
      assert.strictEqual(isProjectId(project), false, project);
      await rejectsInvalid(`task filter project "${project}"`, () => client.tasks.list({ project }));
      await rejectsInvalid(`files of project "${project}"`, () => client.files.list({ project }));
      await rejectsInvalid(`project "${project}"`, () => client.projects.get(project));
      const problem = destinationProblem({ kind: 'projectRoot', project }, []);
      refused(`copy destination "${project}"`, problem!);
      refusals++;
    }
    refused('copy into itself', destinationProblem({ kind: 'sameProjectFolder', project: 'a/b', folder: 'a'.repeat(24), path: [] }, ['a'.repeat(24)])!);
    for (const name of ['a/b', '..', 'x'.repeat(256)]) refused(`new name "${name.slice(0, 12)}"`, nameProblem(name)!);
  });

  it('malformed endpoints: refused with the reason, nothing sent to them', async () => {
    const port = new URL(emu.baseUrl).port;
    const bad: [string, RegExp][] = [
      ['', /empty/],
      ['not a url', /is not a URL\. Expected something like https/],
      ['ftp://api.sbgenomics.com/v2', /must use https, not ftp/],
      ['file:///etc/passwd', /must use https, not file/],
      ['javascript:alert(1)', /must use https, not javascript/],
      ['http://api.sbgenomics.com/v2', /Plain http is refused for api\.sbgenomics\.com.*Use https/],
      [`http://user:secret@127.0.0.1:${port}/v2`, /must not contain a user name or password/],
      [`http://127.0.0.1:${port}/v2?token=x`, /must not contain a query or a fragment/],
      [`http://127.0.0.1:${port}/v2#x`, /must not contain a query or a fragment/],
    ];
    for (const [endpoint, says] of bad) {
      const check = checkEndpoint(endpoint);
      assert.ok(!check.ok, endpoint);
      assert.match(check.reason, says, endpoint);
      shown(`endpoint "${endpoint}"`, check.reason, ['Retry']);
      // A client pointed at it sends nothing (the last three point at the emulator itself).
      const misconfigured = makeClient(endpoint);
      await sendsNothing(`endpoint "${endpoint}"`, async () => {
        await assert.rejects(misconfigured.user(), (e: unknown) => e instanceof ApiError && e.kind === 'config' && e.message === check.reason);
      });
      refusals++;
    }
  });

  it('malformed tokens: refused before any request; a rejected one is named without its value', async () => {
    const bad: [string, RegExp][] = [
      ['', /^Paste the authentication token/],
      ['abc', /usually 32 characters; this one has 3/],
      ['x'.repeat(300), /this one has 300/],
      ['0123456789abcdef 0123456789abcdef', /no spaces or line breaks/],
      ['0123456789abcdef\r\nX-Other: 1', /no spaces or line breaks/],
      ['0123456789abcdef\u20280123456789', /no spaces or line breaks/],
      ['“0123456789abcdef0123456789abcdef”', /only letters, digits and plain punctuation/],
      ['0123456789abcdéf0123456789abcdef', /only letters, digits and plain punctuation/],
    ];
    for (const [token, says] of bad) {
      const problem = checkTokenShape(token);
      assert.ok(problem, `"${token}" refused`);
      assert.match(problem, says);
      refused(`token shape ${JSON.stringify(token.slice(0, 20))}`, problem);
      refusals++;
    }
    // The token box sends a token to GET /v2/user only once its shape is right (auth/commands.ts); one that is
    // refused by the platform is named by the endpoint, never by its value.
    const wrong = '0123456789abcdef0123456789abcdef';
    const before = emu.stats.requests;
    const check = await checkToken(emu.baseUrl, wrong, (entry) => record.logEntries.push(entry));
    assert.ok(!check.ok && check.rejected);
    assert.strictEqual(emu.stats.requests - before, 1, 'one request: GET /v2/user');
    shown('rejected token', check.reason, ['Set Authentication Token']);
    assert.ok(!check.reason.includes(wrong));
    // A token that no header can carry, reaching the client another way (a credentials file, SB_AUTH_TOKEN):
    // nothing is sent, and the error never repeats the token (node-fetch's own message does).
    const unsendable = `${TOKEN.slice(0, 10)}—${TOKEN.slice(10)}`;
    const odd = makeClient(emu.baseUrl, { token: unsendable, maxRetries: 0 });
    await sendsNothing('unsendable token', async () => {
      await assert.rejects(odd.user(), (e: unknown) => {
        record.errors.push(e);
        const text = shownError('unsendable token', e, ['Retry']);
        assert.ok(!text.includes(unsendable) && !(e as Error).message.includes(unsendable), `the token is not in "${text}"`);
        assert.ok(!JSON.stringify({ ...(e as object), stack: (e as Error).stack, cause: String((e as Error).cause) }).includes(unsendable));
        return true;
      });
    });
    assert.ok(!record.logEntries.some((l) => JSON.stringify(l).includes(unsendable)), 'nor does the request log');
    const viaCheck = await checkToken(emu.baseUrl, unsendable);
    assert.ok(!viaCheck.ok && !viaCheck.reason.includes(unsendable), viaCheck.ok ? '' : viaCheck.reason);
  });

  it('10,000 pasted IDs: split into calls of at most 100, each accepted, each item received once; one bad entry stops all', async () => {
    const s = await copySetup({ copyStepMs: 5 });
    try {
      const real = s.emu.data.files.filter((f) => f.parent !== null).map((f) => f.id);
      const decorate = (id: string, i: number) =>
        [id, id.toUpperCase(), `"${id}"`, `${s.emu.baseUrl.replace('/v2', '')}/u/x/files/${id}`, `[${id}]`, `'${id}',`][i % 6];
      const entries = Array.from({ length: 10_000 }, (_, i) => decorate(real[i % real.length], i));
      // Separators as people paste them: new lines, commas, tabs, semicolons.
      const text = entries.map((e, i) => e + ['\n', ', ', '\t', '; '][i % 4]).join('');
      const pasted = splitIdText(text);
      assert.strictEqual(pasted.length, 10_000);
      const destination = { kind: 'projectRoot' as const, project: s.destination.project };

      // One malformed entry among them: the whole copy is refused, naming it, and nothing is sent.
      const withBad = [...pasted.slice(0, 5_000), '567890abc8a5639cc67220', ...pasted.slice(5_000)];
      const before = s.emu.stats.requests;
      const refusedPlan = planCopy({ sources: withBad, destination });
      assert.ok(!refusedPlan.ok);
      refused('10,000 IDs with a bad one', refusedPlan.problems.join(' '));
      assert.match(refusedPlan.problems[0], /This is not a file or folder ID \(24 hex digits\): "567890abc8a5639cc67220"\./);
      assert.strictEqual(s.emu.stats.requests, before);

      const plan = planCopy({ sources: pasted, destination });
      assert.ok(plan.ok);
      assert.strictEqual(plan.items.length, new Set(real).size, 'repeats dropped');
      assert.strictEqual(plan.duplicates, 10_000 - plan.items.length);
      assert.ok(plan.batches.every((b) => b.length >= 1 && b.length <= 100), 'at most 100 items per call');
      const sent = await s.window.send(plan.batches, s.destination, '10,000 pasted IDs');
      assert.deepStrictEqual(sent.left, [], 'every call sent');
      assert.ok(s.emu.copyRequests.every((r) => r.status === 200 && r.jobId), 'every call accepted (none refused as a whole)');
      await untilFinished(s.tracker, '10,000 pasted IDs');
      const perItemErrors = s.tracker.all().reduce((n, j) => n + (j.result ?? []).filter((r) => r.error).length, 0);
      const figures = accountCopies(s.emu, plan.items);
      s.accountCalls();
      note(`10,000 pasted IDs (${plan.duplicates.toLocaleString('en-US')} repeats): ${plan.items.length} items in ${plan.batches.length} calls of ≤100, ` +
        `${s.emu.copyRequests.length} accepted, ${perItemErrors} item errors; requested ${figures.requested}, received ${figures.received}, lost ${figures.lost}, doubled ${figures.doubled}`);
      assert.strictEqual(perItemErrors, 0, 'no item refused by the platform');
      assert.deepStrictEqual([figures.received, figures.lost, figures.doubled], [plan.items.length, 0, 0]);
    } finally {
      s.window.dispose();
    }
  });
});

