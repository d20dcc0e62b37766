// Run for Each Row…: what finding a sample sheet's file names costs in requests, against the emulator
// (tasks/sheetFiles.ts): the top level 50 names a request, the search only for the names not there.
import * as assert from 'assert';
import { SbClient } from '../../../src/api/client';
import { planSheet } from '../../../src/tasks/sampleSheet';
import { findSheetFiles } from '../../../src/tasks/sheetFiles';
import { appInputs } from '../../../src/apps/cwlInputs';
import { startEmulator } from '../../emulator';
import { RequestCounter } from '../../support/requestCounter';

describe('Run for Each Row: finding a sheet\'s file names', () => {
  it('1,000 rows naming files of the project: one list request per 50 names at the top level, a search per name below it', async () => {
    const emu = await startEmulator({ files: 3000 });
    try {
      const counter = new RequestCounter();
      const client = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }), onRequest: counter.hook() });
      const project = emu.data.projects[0].id;
      const root = emu.data.files.find((f) => f.project === project && f.parent === null)!;
      const top = emu.data.children(root.id).filter((f) => f.type === 'file');
      const below = emu.data.files.filter((f) => f.project === project && f.type === 'file' && f.parent !== root.id && !top.some((t) => t.name === f.name));
      assert.ok(top.length >= 10 && below.length >= 5, `files at the top (${top.length}) and below it (${below.length})`);
      const rows = Array.from({ length: 1000 }, (_, i) => (i < 995 ? top[i % top.length] : below[i - 995]).name);
      const names = [...new Set(rows)];
      const found = await findSheetFiles(client, project, names);
      const lists = Math.ceil(names.filter((n) => top.some((t) => t.name === n)).length / 50);
      console.log(`      ${rows.length} rows, ${names.length} names: ${counter.count('GET', /\/files(\?|$)/)} list requests, ${counter.count('POST', /\/files\/search/)} searches; ${found.size} names found`);
      assert.strictEqual(counter.count('POST', /\/files\/search/), names.length - names.filter((n) => top.some((t) => t.name === n)).length);
      assert.ok(counter.count('GET', /\/files(\?|$)/) <= Math.ceil(names.length / 50), `at most one list request per 50 names (${lists} for those at the top)`);
      const plan = planSheet({ rows: [{ line: 1, cells: ['f'] }, ...rows.map((name, i) => ({ line: i + 2, cells: [name] }))], template: { app: 'a/b/c/0', project, inputs: {} }, inputs: appInputs({ inputs: [{ id: 'f', type: 'File' }] }), found });
      const unique = plan.tasks.filter((t) => t.problems.length === 0).length;
      assert.strictEqual(unique + plan.tasks.filter((t) => t.problems.some((p) => /files are named/.test(p))).length, 1000, 'each row made, or its name found twice');
    } finally {
      await emu.close();
    }
  });
});
