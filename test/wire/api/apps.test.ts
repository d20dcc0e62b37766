// The apps client (platform-api.md §14) against the emulator: listing, one app, its raw CWL by revision, a new revision,
// an install, a copy; what is refused before sending, and what the platform refuses.
import * as assert from 'assert';
import { appBaseId, appRevisionOf } from '../../../src/api/apps';
import { SbClient } from '../../../src/api/client';
import type { ApiError } from '../../../src/api/errors';
import { startEmulator, type Emulator } from '../../emulator';

describe('apps client (against the emulator)', function () {
  this.timeout(20_000);
  let emu: Emulator;
  let client: SbClient;
  const sent = () => emu.received.length;

  before(async () => {
    emu = await startEmulator({ tasks: 10, files: 40 });
    client = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }) });
  });
  after(() => emu.close());

  it('lists a project\'s apps and the public ones, searched by every term given', async () => {
    const mine = await client.apps.list({ project: 'rfranklin/my-project' }, { limit: 100 });
    const filter = mine.items.find((a) => appBaseId(a.id) === 'rfranklin/my-project/variant-filter');
    assert.strictEqual(filter && appRevisionOf(filter.id), 3, mine.items.map((a) => a.id).join(', '));
    assert.ok(mine.items.every((a) => a.project === 'rfranklin/my-project' && Number.isInteger(a.revision)));
    const pub = await client.apps.list({ visibility: 'public' }, { limit: 100 });
    assert.ok(pub.items.length > 0 && pub.items.every((a) => a.project === 'admin/sbg-public-data'));
    const both = await client.apps.list({ project: 'rfranklin/my-project', q: ['variant', 'filter'] });
    assert.deepStrictEqual(both.items.map((a) => appBaseId(a.id)), ['rfranklin/my-project/variant-filter']);
    const none = await client.apps.list({ project: 'rfranklin/my-project', q: ['variant', 'no-such-word'] });
    assert.deepStrictEqual(none.items, []);
  });

  it('reads an app, and its raw CWL of the latest revision or of the one named', async () => {
    const app = await client.apps.get('rfranklin/my-project/variant-filter');
    assert.strictEqual(app.revision, 3);
    assert.strictEqual(typeof app.raw?.class, 'string');
    const latest = await client.apps.raw('rfranklin/my-project/variant-filter');
    const first = await client.apps.raw('rfranklin/my-project/variant-filter/0');
    assert.strictEqual(latest['sbg:revision'], 3);
    assert.strictEqual(first['sbg:revision'], 0);
    assert.notDeepStrictEqual(first.inputs, latest.inputs);
  });

  it('makes the next revision from CWL, refuses one already made, and installs a new app at revision 0', async () => {
    const raw = await client.apps.raw('rfranklin/my-project/count-matches');
    const latest = raw['sbg:revision'] as number;
    const made = await client.apps.createRevision('rfranklin/my-project/count-matches', latest + 1, { ...raw, label: 'Count matches, again' });
    assert.strictEqual(made['sbg:revision'], latest + 1);
    assert.strictEqual(made['sbg:id'], `rfranklin/my-project/count-matches/${latest + 1}`);
    await assert.rejects(client.apps.createRevision('rfranklin/my-project/count-matches', latest + 1, raw), (e: ApiError) => e.status === 409 && e.code === 6003 && !e.maybeDelivered);
    const installed = await client.apps.install('rfranklin/my-project/brand-new-tool', { cwlVersion: 'v1.0', class: 'CommandLineTool', label: 'Brand new', inputs: [], outputs: [], baseCommand: ['true'] });
    assert.strictEqual(installed['sbg:revision'], 0);
  });

  it('copies an app into another project', async () => {
    const projects = emu.data.projects.filter((p) => p.permissions.write && p.id !== 'rfranklin/my-project');
    const copy = await client.apps.copy('rfranklin/my-project/variant-filter', { project: projects[0].id, name: 'variant-filter-copy', strategy: 'direct' });
    assert.strictEqual(copy.project, projects[0].id);
    assert.strictEqual(copy.revision, 0);
  });

  it('refuses malformed IDs, revisions and names before sending anything', async () => {
    const before = sent();
    for (const call of [
      () => client.apps.get('not-an-app'),
      () => client.apps.raw('a/b/../c'),
      () => client.apps.createRevision('rfranklin/my-project/count-matches/2', 3, {}),
      () => client.apps.createRevision('rfranklin/my-project/count-matches', -1, {}),
      () => client.apps.install('rfranklin/my-project/has space', {}),
      () => client.apps.copy('rfranklin/my-project/variant-filter', { project: 'no-slash' }),
      () => client.apps.list({ project: 'no-slash' }),
    ]) {
      await assert.rejects(call(), (e: ApiError) => e.kind === 'invalid');
    }
    assert.strictEqual(sent(), before);
  });
});
