import * as assert from 'assert';
import { ApiError } from '../../../src/api/errors';
import type { FileRecord, Page } from '../../../src/api/types';
import { TaskDocumentFacts, type TaskDocumentApi } from '../../../src/tasks/taskDocumentFacts';

/** A project of 20,000 files, pages of at most 100; every request counted. */
function platform() {
  const files: FileRecord[] = Array.from({ length: 20_000 }, (_, i) => ({ href: '', id: i.toString(16).padStart(24, '0'), name: `s${i}.bam`, type: 'file', project: 'u/p' }));
  const requests: string[] = [];
  const api: TaskDocumentApi = {
    apps: {
      raw: async (id) => {
        requests.push(`raw ${id}`);
        return { class: 'CommandLineTool', inputs: [{ id: 'reads', type: 'File[]' }] };
      },
    },
    files: {
      get: async (id) => {
        requests.push(`get ${id}`);
        const f = files.find((x) => x.id === id);
        if (!f) throw new ApiError({ kind: 'http', status: 404, code: 5002, message: 'No such file.' });
        return f;
      },
      list: async (_where, page): Promise<Page<FileRecord>> => {
        requests.push(`list ${page.offset}`);
        const items = files.slice(page.offset ?? 0, (page.offset ?? 0) + (page.limit ?? 50));
        return { items, total: files.length, next: (page.offset ?? 0) + items.length < files.length ? 'next' : undefined };
      },
    },
  };
  return { api, requests };
}

describe('task document: what it reads from the platform, held', () => {
  it('a project of 20,000 files: the first list after one page request, the next from what is held, a page more only when asked for more', async () => {
    const { api, requests } = platform();
    const facts = new TaskDocumentFacts(api);
    const first = await facts.projectFiles('u/p', false);
    assert.deepStrictEqual([first.files.length, first.complete, requests], [100, false, ['list 0']]);
    const again = await facts.projectFiles('u/p', false);
    assert.deepStrictEqual([again.files.length, requests.length], [100, 1], 'from what is held');
    const more = await facts.projectFiles('u/p', true);
    assert.deepStrictEqual([more.files.length, requests], [200, ['list 0', 'list 100']]);
  });

  it('an app\'s inputs are read once per revision; a file once per ID (unknown until it answers, then known; a 404 is "missing")', async () => {
    const { api, requests } = platform();
    let told = 0;
    const facts = new TaskDocumentFacts(api, () => told++);
    const [a, b] = await Promise.all([facts.app('u/p/app/1'), facts.app('u/p/app/1')]);
    assert.ok('inputs' in a && 'inputs' in b);
    assert.strictEqual(requests.filter((r) => r.startsWith('raw')).length, 1);
    const id = (5).toString(16).padStart(24, '0');
    assert.strictEqual(facts.lookup(id), undefined, 'not known yet');
    assert.strictEqual(facts.lookup(id), undefined);
    await new Promise((r) => setImmediate(r));
    assert.deepStrictEqual(facts.lookup(id), { id, name: 's5.bam', type: 'file', project: 'u/p' });
    facts.lookup('f'.repeat(24));
    await new Promise((r) => setImmediate(r));
    assert.strictEqual(facts.lookup('f'.repeat(24)), 'missing');
    assert.deepStrictEqual(requests.filter((r) => r.startsWith('get')), [`get ${id}`, `get ${'f'.repeat(24)}`], 'each asked once');
    assert.strictEqual(told, 2, 'each answer tells the documents to check again');
  });
});
