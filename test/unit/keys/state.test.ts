import * as assert from 'assert';
import { migrateState, readState, STATE, STATE_KEY_PREFIXES, STATE_VERSION, STATE_VERSION_KEY, type StateKey } from '../../../src/keys/state';
import { memoryState } from '../../support/sharedState';
import { manifest, readSource, sourceFiles } from './manifest';

const job = {
  id: '7071',
  account: 'https://api.sbgenomics.com/v2#rfranklin',
  submittedAt: 1_700_000_000_000,
  items: [{ file: '567890abc8a5639cc6722063', project: 'rfranklin/dest' }],
  destination: { label: 'rfranklin/dest', project: 'rfranklin/dest' },
  state: 'FINISHED',
  completed: 1,
};

describe('keys/state: the Memento keys', () => {
  const entries = Object.values(STATE) as StateKey<unknown>[];
  const keys = [...entries.map((k) => k.key), STATE_VERSION_KEY];
  const prefixes = Object.values(STATE_KEY_PREFIXES);

  it('are distinct, and none falls in a family the outbox lists by prefix', () => {
    assert.strictEqual(new Set(keys).size, keys.length);
    assert.deepStrictEqual(keys.filter((k) => prefixes.some((p) => k.startsWith(p))), []);
    // One prefix inside another would make the outbox read a heartbeat as a write record, or the other way round.
    assert.deepStrictEqual(prefixes.filter((p) => prefixes.some((q) => q !== p && q.startsWith(p))), []);
  });

  it('are written nowhere else in src/', () => {
    // A view's ID may be spelled as a key is (sevenbridges.copyJobs): a view is not a key.
    const views = new Set(Object.values(manifest().contributes.views).flat().map((v) => v.id));
    const written: string[] = [...keys, ...prefixes].filter((k) => !views.has(k));
    const literals = sourceFiles('src')
      .filter((file) => !file.startsWith('src/keys/'))
      .flatMap((file) => [...readSource(file).matchAll(/['"`](sevenbridges\.[\w.]+)['"`]/g)].filter((m) => written.includes(m[1])).map((m) => `${file}: ${m[1]}`));
    assert.deepStrictEqual(literals, []);
  });

  it('are read through the table: no `get<T>` (a cast by another name) on a store; only `get<unknown>` with a check of its own (the outbox, a transfer\'s resume records)', () => {
    const casts = sourceFiles('src')
      .filter((file) => !file.startsWith('src/write/'))
      .flatMap((file) => [...readSource(file).matchAll(/\b(?:globalState|workspaceState|store|state|memento)\.get<(?!unknown>)/g)].map(() => file));
    assert.deepStrictEqual(casts, []);
  });

  it('read what this version stores, and drop what does not read', () => {
    assert.deepStrictEqual(
      STATE.taskFilter.read({ statuses: ['FAILED', 'ABORTING', 3], project: 'rfranklin/rna', parent: { id: 'x', name: 7 }, created: { preset: 'day' }, ended: { from: '2026-03-01', to: 5 }, started: 'soon' }),
      { statuses: ['FAILED'], project: 'rfranklin/rna', parent: { id: 'x' }, created: { preset: 'day' }, ended: { from: '2026-03-01' } },
    );
    assert.strictEqual(STATE.taskFilter.read('garbage'), undefined);
    assert.deepStrictEqual(STATE.expandedTaskRows.read(['group:RUNNING', 4, null]), ['group:RUNNING']);
    assert.deepStrictEqual(
      STATE.watchedTasks.read([{ id: 't1', endpoint: 'e', name: 'BWA', since: 5, status: 'RUNNING' }, { id: 't2', endpoint: 'e' }, { id: 't3' }, 'x']),
      [
        { id: 't1', endpoint: 'e', name: 'BWA', since: 5, status: 'RUNNING' },
        { id: 't2', endpoint: 'e', name: 't2', since: 0 },
      ],
    );
    assert.deepStrictEqual(STATE.copyJobs.read({ version: 1, jobs: [job, { ...job, id: 7072, state: 'RUNNING' }, { ...job, id: '7073', destination: 'rfranklin/dest' }, { ...job, id: '7074', items: [{}] }] }), { version: 1, jobs: [job] });
    assert.strictEqual(STATE.copyJobs.read([job]), undefined, 'the jobs are inside a record');
    // An import's or export's choices, which Retry Failed Items sends again: kept as they read, what does not read dropped.
    const imported = { ...job, id: '7075', type: 'IMPORT' };
    assert.deepStrictEqual(
      STATE.copyJobs.read({ version: 1, jobs: [{ ...imported, choices: { onClash: 'overwrite', keepFolders: false } }, { ...imported, id: '7076', choices: { onClash: 'replace', keepFolders: 'no', copyOnly: false } }, { ...imported, id: '7077', choices: 'overwrite' }] })?.jobs.map((j) => j.choices),
      [{ onClash: 'overwrite', keepFolders: false }, { copyOnly: false }, undefined],
    );
    assert.deepStrictEqual(STATE.endpointsWithTokens.read(['https://sb.example.com/v2', {}]), ['https://sb.example.com/v2']);
    assert.deepStrictEqual(readState(memoryState(), STATE.watchedTasks), undefined);
  });

  it('migrates what older versions stored, once: each value rewritten as it reads, the store marked with the version', async () => {
    const global = memoryState();
    await global.update('sevenbridges.tasks.watched', [{ id: 't1', endpoint: 'e', name: 'BWA', since: 5 }, { id: 42 }]);
    await global.update('sevenbridges.copyJobs', { version: 1, jobs: [job] });
    await global.update('sevenbridges.auth.endpointsWithTokens', 'https://sb.example.com/v2');
    await global.update('sevenbridges.tasks.filter', { project: 'a/b' }); // a workspace key: not this store's
    assert.strictEqual(migrateState(global, 'global'), 1);
    assert.deepStrictEqual(global.get('sevenbridges.tasks.watched'), [{ id: 't1', endpoint: 'e', name: 'BWA', since: 5 }]);
    assert.deepStrictEqual(global.get('sevenbridges.copyJobs'), { version: 1, jobs: [job] });
    assert.strictEqual(global.get('sevenbridges.auth.endpointsWithTokens'), undefined, 'not a list: removed');
    assert.deepStrictEqual(global.get('sevenbridges.tasks.filter'), { project: 'a/b' });
    assert.strictEqual(global.get(STATE_VERSION_KEY), STATE_VERSION);
    const writes = global.writes;
    await global.update('sevenbridges.tasks.expanded', 'not a list');
    assert.strictEqual(migrateState(global, 'global'), 1);
    assert.strictEqual(global.writes, writes + 1, 'a migrated store is not migrated again');

    const workspace = memoryState();
    await workspace.update('sevenbridges.tasks.expanded', ['group:RUNNING', 3]);
    migrateState(workspace, 'workspace');
    assert.deepStrictEqual(workspace.get('sevenbridges.tasks.expanded'), ['group:RUNNING']);

    const newer = memoryState();
    await newer.update(STATE_VERSION_KEY, STATE_VERSION + 1);
    await newer.update('sevenbridges.tasks.watched', 'a shape of a later version');
    assert.strictEqual(migrateState(newer, 'global'), STATE_VERSION + 1);
    assert.strictEqual(newer.get('sevenbridges.tasks.watched'), 'a shape of a later version', 'a newer version\'s store is left as it is');
  });
});
