// 16. A push of CWL exactly once (issue 40): the next revision of an app and a new app, sent through the outbox as Push
// App Revision… sends them (src/apps/appRevisionWrite.ts), against the emulator, each answer lost in one of the ways a
// POST can be lost: processed and the answer dropped (found: revision N holds this document); not processed (sent
// again, once); not processed at first and arriving late, after the second was made (refused with 409, one revision);
// a colleague's push taking the number meanwhile (the person decides, nothing overwritten). Rows `app revision` and
// `app install` of the writes table.
import * as assert from 'assert';
import nodeFetch from 'node-fetch';
import type { RawApp } from '../../src/api/apps';
import type { SbClient } from '../../src/api/client';
import { systemClock } from '../../src/api/clock';
import type { FetchLike } from '../../src/api/transport';
import { withoutServerFields } from '../../src/apps/appDocument';
import type { AppRevisionOutcome, AppRevisionPayload } from '../../src/apps/appRevisionWrite';
import { WRITE_KINDS } from '../../src/keys/writes';
import { Outbox } from '../../src/write/outbox';
import { writeKinds } from '../../src/writeKinds';
import type { Emulator } from '../emulator';
import { memoryState } from '../support/sharedState';
import { TEST_OUTBOX } from './copyKit';
import { accountWrites, compareWrites, makeClient, makeEmulator, NO_TRACKER, TOKEN } from './support';

const APP = 'rfranklin/my-project/align-and-sort';
const isAppPost = (url: string, init: { method?: string }) => init.method === 'POST' && /\/apps\/[^?]+\/raw(\?|$)/.test(url);

/** What the next POSTs of CWL meet: passed on, answered 502 without passing on (`unsent`), or held back and answered 502 (`late`). */
type AppPostFault = 'unsent' | 'late';

describe('16. a push of CWL exactly once (issue 40)', function () {
  this.timeout(60_000);
  let emu: Emulator;
  let client: SbClient;
  let outbox: Outbox;
  let faults: AppPostFault[];
  let held: (() => Promise<unknown>)[];
  const account = () => ({ key: `${emu.baseUrl}#${emu.username}`, credentials: { endpoint: emu.baseUrl, token: TOKEN } });

  beforeEach(async () => {
    emu = await makeEmulator();
    faults = [];
    held = [];
    const fetch: FetchLike = async (url, init) => {
      const fault = isAppPost(url, init) ? faults.shift() : undefined;
      if (fault === 'late') held.push(() => nodeFetch(url, init as never));
      if (fault) return { status: 502, headers: { get: () => null }, text: async () => '<html>502 Bad Gateway</html>' };
      return nodeFetch(url, init as never) as never;
    };
    client = makeClient(emu.baseUrl, { fetch });
    outbox = new Outbox(memoryState(), async () => account(), writeKinds(client, NO_TRACKER, systemClock), undefined, TEST_OUTBOX);
    outbox.start();
  });
  afterEach(async () => {
    outbox.dispose();
    await emu.close();
  });

  const revisions = (id = APP) => emu.data.apps.get(id)?.revisions ?? [];
  const posts = (id = APP) => emu.writes.filter((w) => w.method === 'POST' && w.path.startsWith(`/apps/${id}/`));
  /** The latest revision with a default changed: what a person pushes after editing a pulled file. */
  const edited = async (threads: number): Promise<RawApp> => {
    const latest = withoutServerFields(await client.apps.raw(APP));
    const inputs = (latest.inputs as { id: string; default?: unknown }[]).map((i) => (i.id === 'threads' ? { ...i, default: threads } : i));
    return { ...latest, inputs, 'sbg:revisionNotes': `threads ${threads}` };
  };
  const push = (payload: AppRevisionPayload, kind: string = WRITE_KINDS.appRevision) => outbox.send<AppRevisionOutcome>(kind, [payload], account(), { until: 'end', atMostMs: 20_000 });
  /** The revisions made for this test's pushes, by their notes: each push's once, or not. */
  const madeFor = (notes: string[]) => revisions().filter((r) => notes.includes(r.notes)).map((r) => r.notes);

  it('processed, its answer lost: read back (revision N holds this document), not sent again', async () => {
    const cwl = await edited(24);
    emu.loseNextWriteResponse({ method: 'POST', path: new RegExp(`^/apps/${APP}/3/raw$`) });
    const { finished, left } = await push({ app: APP, revision: 3, cwl, source: 'align-and-sort.cwl' });
    assert.deepStrictEqual(left.map((r) => [r.state, r.note]), []);
    assert.deepStrictEqual(finished.map((f) => [f.found, f.outcome.id]), [[true, `${APP}/3`]]);
    assert.strictEqual(revisions().length, 4);
    assert.strictEqual(posts().length, 1, 'one POST');
    accountWrites('app revision', { ...compareWrites(['threads 24'], madeFor(['threads 24'])), wronglyAdopted: 0, stuck: 0 }, 'answer lost after it was made');
  });

  it('not processed (a 502 from the gateway): read as not there, sent again once; one revision', async () => {
    const cwl = await edited(32);
    faults.push('unsent');
    const { finished, left } = await push({ app: APP, revision: 3, cwl, source: 'align-and-sort.cwl' });
    assert.deepStrictEqual(left.map((r) => [r.state, r.note]), []);
    assert.deepStrictEqual(finished.map((f) => f.outcome.id), [`${APP}/3`]);
    assert.deepStrictEqual(madeFor(['threads 32']), ['threads 32']);
    assert.strictEqual(posts().length, 1, 'the emulator received the second only');
    accountWrites('app revision', { ...compareWrites(['threads 32'], madeFor(['threads 32'])), wronglyAdopted: 0, stuck: 0 }, 'not processed, sent again');
  });

  it('arriving late, after the second was made: refused with 409 (the number is named), never a second revision', async () => {
    const cwl = await edited(40);
    faults.push('late');
    const { finished, left } = await push({ app: APP, revision: 3, cwl, source: 'align-and-sort.cwl' });
    assert.deepStrictEqual([left.length, finished.length], [0, 1]);
    assert.strictEqual(held.length, 1);
    const late = (await held[0]()) as { status: number };
    assert.strictEqual(late.status, 409, 'the late first call is refused');
    assert.deepStrictEqual(madeFor(['threads 40']), ['threads 40']);
    assert.strictEqual(revisions().length, 4);
    accountWrites('app revision', { ...compareWrites(['threads 40'], madeFor(['threads 40'])), wronglyAdopted: 0, stuck: 0 }, 'the first arriving late');
  });

  it('a colleague pushes revision N meanwhile: the person is told who and decides; nothing overwritten, nothing made', async () => {
    const cwl = await edited(48);
    const colleague = { ...(await edited(4)), 'sbg:revisionNotes': 'colleague' };
    await client.apps.createRevision(APP, 3, colleague);
    faults.push('unsent');
    const { finished, left } = await push({ app: APP, revision: 3, cwl, source: 'align-and-sort.cwl' });
    assert.strictEqual(finished.length, 0);
    assert.deepStrictEqual(left.map((r) => [r.state, r.note]), [['changed', `Revision 3 of ${APP} holds another document, pushed by rfranklin. Push again to compare and make the next revision.`]]);
    assert.deepStrictEqual(revisions().map((r) => r.notes).slice(3), ['colleague']);
    accountWrites('app revision', { requested: 1, once: 0, doubled: 0, lost: 0, asked: 1, wronglyAdopted: 0, stuck: 0 }, 'a colleague took the number');
    await outbox.discard(left[0].group);
  });

  it('a new app, its answer lost after it was made: found as revision 0, no revision 1', async () => {
    const id = 'rfranklin/my-project/new-tool';
    const cwl: RawApp = { class: 'CommandLineTool', cwlVersion: 'v1.0', baseCommand: ['echo'], inputs: [{ id: 'words', type: 'string' }], outputs: [], 'sbg:revisionNotes': 'new tool' };
    emu.loseNextWriteResponse({ method: 'POST', path: new RegExp(`^/apps/${id}/raw$`) });
    const { finished, left } = await push({ app: id, revision: 0, cwl, source: 'new-tool.cwl' }, WRITE_KINDS.appInstall);
    assert.deepStrictEqual(left.map((r) => [r.state, r.note]), []);
    assert.deepStrictEqual(finished.map((f) => [f.found, f.outcome.id]), [[true, `${id}/0`]]);
    assert.strictEqual(revisions(id).length, 1);
    assert.strictEqual(posts(id).length, 1);
    accountWrites('app install', { ...compareWrites(['new tool'], revisions(id).map((r) => r.notes)), wronglyAdopted: 0, stuck: 0 }, 'answer lost after it was made');
  });
});
