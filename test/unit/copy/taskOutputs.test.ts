import * as assert from 'assert';
import { gatherOutputs } from '../../../src/copy/taskOutputs';
import type { Page, Task } from '../../../src/api/types';

const fileId = (n: number) => n.toString(16).padStart(24, '0');
const out = (...ns: number[]) => ({ out: ns.map((n) => ({ class: 'File', path: fileId(n), name: `f${n}.txt` })) });
const task = (id: string, extra: Partial<Task> = {}): Task => ({ href: '', id, name: id, status: 'COMPLETED', project: 'u/p', ...extra });

describe('outputs of several tasks', () => {
  it('takes each output once, reads a task without outputs, skips one not completed, and lists a batch\'s completed children', async () => {
    const calls: string[] = [];
    const children = Array.from({ length: 150 }, (_, i) => task(`c${i}`, { outputs: out(1000 + i), project: 'u/q' }));
    const source = {
      get: async (id: string) => {
        calls.push(`get ${id}`);
        return id === 'b' ? task('b', { outputs: out(2, 3) }) : task(id, { status: 'FAILED', outputs: out(9) });
      },
      list: async (query: { parent?: string; status?: string }, page: { offset?: number; limit?: number } = {}): Promise<Page<Task>> => {
        calls.push(`list ${query.parent} ${query.status} ${page.offset}`);
        const items = children.slice(page.offset ?? 0, (page.offset ?? 0) + (page.limit ?? 25));
        return { items, total: children.length, next: (page.offset ?? 0) + items.length < children.length ? 'next' : undefined };
      },
    };
    const gathered = await gatherOutputs([task('a', { outputs: out(1, 2) }), task('b'), task('f'), task('batch', { batch: true })], source);
    assert.deepStrictEqual(calls, ['get b', 'get f', 'list batch COMPLETED 0', 'list batch COMPLETED 100']);
    assert.strictEqual(gathered.ids.length, 3 + 150, 'f2 once, f3, f1, and one per child');
    assert.strictEqual(new Set(gathered.ids).size, gathered.ids.length);
    assert.strictEqual(gathered.tasks, 2 + 150);
    assert.strictEqual(gathered.names[fileId(3)], 'f3.txt');
    assert.deepStrictEqual(gathered.projects.sort(), ['u/p', 'u/q']);
    assert.deepStrictEqual(gathered.notes, ['"f" is not completed: its outputs are not copied.']);
  });

  it('reads a batch\'s children only up to its page bound, and says so', async () => {
    const source = {
      get: async () => task('x'),
      list: async (): Promise<Page<Task>> => ({ items: Array.from({ length: 100 }, (_, i) => task(`c${i}`, { outputs: out(i) })), total: 5000, next: 'next' }),
    };
    const gathered = await gatherOutputs([task('batch', { batch: true, name: 'Big batch' })], source, 2);
    assert.strictEqual(gathered.requests, 2);
    assert.deepStrictEqual(gathered.notes, ['Only the first 200 completed children of "Big batch" were read.']);
  });
});
