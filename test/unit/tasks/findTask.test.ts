import * as assert from 'assert';
import type { TaskListQuery } from '../../../src/api/tasks';
import type { Page, Task } from '../../../src/api/types';
import { namePages } from '../../../src/tasks/findTask';

/** A platform of `names` ordered by name when asked, 100 a page through next links; it records what it was asked. */
function namedSource(names: string[]) {
  const asked: string[] = [];
  const sorted = (query: TaskListQuery) => (query.order_by === 'name' ? [...names].sort() : names);
  let last: TaskListQuery = {};
  const page = (query: TaskListQuery, offset: number): Page<Task> => {
    const all = sorted(query);
    return { items: all.slice(offset, offset + 100).map((name) => ({ href: '', id: name, name })), total: all.length, next: offset + 100 < all.length ? `next:${offset + 100}` : undefined };
  };
  return {
    asked,
    list: async (query: TaskListQuery, p: { offset?: number; limit?: number }) => {
      last = query;
      asked.push(`${query.order_by} ${query.order} ${query.status ?? ''} ${query.fields} ${p.offset}+${p.limit}`);
      return page(query, p.offset ?? 0);
    },
    next: async (url: string) => {
      asked.push(url);
      return page(last, Number(url.slice('next:'.length)));
    },
  };
}

describe('Find Task', () => {
  const names = Array.from({ length: 250 }, (_, i) => `sample ${String(250 - i).padStart(3, '0')}`);

  it('lists by name, A to Z, a page at a time as each arrives, with the filter kept and its order replaced', async () => {
    const source = namedSource(names);
    const pages: string[][] = [];
    for await (const page of namePages(source, { status: 'FAILED', order_by: 'created_time', order: 'desc' })) {
      pages.push(page.items.map((t) => t.name));
      assert.strictEqual(page.total, 250);
      // Each page is handed over before the next is asked for.
      assert.strictEqual(source.asked.length, pages.length);
    }
    assert.deepStrictEqual(pages.map((p) => [p[0], p[p.length - 1], p.length]), [
      ['sample 001', 'sample 100', 100],
      ['sample 101', 'sample 200', 100],
      ['sample 201', 'sample 250', 50],
    ]);
    assert.strictEqual(source.asked[0], 'name asc FAILED id,name,status,project,batch,parent,created_time,start_time,end_time,execution_status,price 0+100');
    assert.deepStrictEqual(source.asked.slice(1), ['next:100', 'next:200']);
  });

  it('stops at the most it lists, and when the pick is closed', async () => {
    const source = namedSource(names);
    let got = 0;
    for await (const page of namePages(source, {}, { max: 150 })) got += page.items.length;
    assert.strictEqual(got, 150);
    assert.strictEqual(source.asked.length, 2);
    const closed = new AbortController();
    const again = namedSource(names);
    for await (const page of namePages(again, {}, { signal: closed.signal })) if (page.items.length) closed.abort();
    assert.strictEqual(again.asked.length, 1, 'no page is asked for after the pick closed');
  });
});
