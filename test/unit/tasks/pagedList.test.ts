import * as assert from 'assert';
import type { TaskListQuery } from '../../../src/api/tasks';
import type { Page, Task } from '../../../src/api/types';
import { PagedList, type TaskSource } from '../../../src/tasks/pagedList';

interface FakeListing {
  /** Task ids, newest first; a test may change them between requests. */
  ids: string[];
  readonly requests: { offset?: number; limit?: number }[];
  readonly source: TaskSource;
}

/** A listing served by offset (no next links), with a log of the requests. */
function fakeSource(ids: string[]): FakeListing {
  const fake: FakeListing = {
    ids,
    requests: [],
    source: {
      list: async (_query: TaskListQuery, p) => {
        fake.requests.push({ offset: p.offset, limit: p.limit });
        await new Promise((r) => setTimeout(r, 5));
        const offset = p.offset ?? 0;
        const items = fake.ids.slice(offset, offset + (p.limit ?? 25)).map((id) => ({ href: '', id, name: id }));
        return { items, total: fake.ids.length, next: undefined } satisfies Page<Task>;
      },
      next: async () => {
        throw new Error('no next links here');
      },
    },
  };
  return fake;
}

const many = (n: number, prefix = 't') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('paged task listing', () => {
  it('pages by offset when the platform gives no next link, 100 at a time', async () => {
    const fake = fakeSource(many(250));
    const list = new PagedList(fake.source, () => ({}));
    await list.ensureLoaded();
    assert.strictEqual(list.items.length, 100);
    assert.strictEqual(list.left, 150);
    await list.loadMore();
    await list.loadMore();
    assert.strictEqual(list.items.length, 250);
    assert.strictEqual(list.hasMore, false);
    assert.deepStrictEqual(fake.requests, [{ offset: 0, limit: 100 }, { offset: 100, limit: 100 }, { offset: 200, limit: 100 }]);
    await list.loadMore();
    assert.strictEqual(fake.requests.length, 3, 'nothing more to load, nothing sent');
  });

  it('never shows a task twice when newer tasks push older ones onto the next page', async () => {
    const fake = fakeSource(many(150));
    const list = new PagedList(fake.source, () => ({}));
    await list.ensureLoaded();
    fake.ids = [...many(3, 'new'), ...many(150)];
    await list.loadMore();
    const ids = list.items.map((t) => t.id);
    assert.strictEqual(new Set(ids).size, ids.length);
    assert.strictEqual(ids.length, 150);
  });

  it('a reload keeps what is shown until the answer is in, and reloads as many pages as were shown', async () => {
    const fake = fakeSource(many(250));
    const list = new PagedList(fake.source, () => ({}));
    await list.ensureLoaded();
    await list.loadMore();
    const reloading = list.reload(3);
    assert.strictEqual(list.items.length, 200, 'still shown while reloading');
    await reloading;
    assert.strictEqual(list.items.length, 200);
    assert.deepStrictEqual(fake.requests.slice(2), [{ offset: 0, limit: 100 }, { offset: 100, limit: 100 }]);
  });

  it('a failure is kept (no retry on redraw) until asked again', async () => {
    let fail = true;
    const source: TaskSource = {
      list: async () => {
        if (fail) throw new Error('down');
        return { items: [{ href: '', id: 'a', name: 'a' }], total: 1, next: undefined };
      },
      next: async () => ({ items: [], total: 0, next: undefined }),
    };
    const list = new PagedList(source, () => ({}));
    await list.ensureLoaded();
    assert.strictEqual((list.error as Error).message, 'down');
    await list.ensureLoaded();
    assert.ok(list.error, 'a redraw does not retry');
    fail = false;
    await list.loadMore();
    assert.strictEqual(list.error, undefined);
    assert.deepStrictEqual(list.items.map((t) => t.id), ['a']);
  });

  it('an answer that comes after a newer reload (a source that ignores the abort signal) is not shown', async () => {
    let filter = 'old';
    const delays: Record<string, number> = { old: 40, new: 5 };
    const source: TaskSource = {
      // Ignores the signal on purpose: answers whatever was asked, however late.
      list: async (query) => {
        const asked = query.project ?? '';
        await new Promise((r) => setTimeout(r, delays[asked]));
        return { items: [{ href: '', id: `${asked}-task`, name: asked }], total: 1, next: undefined };
      },
      next: async () => ({ items: [], total: 0, next: undefined }),
    };
    const list = new PagedList(source, () => ({ project: filter }));
    const stale = list.reload();
    filter = 'new';
    list.reset();
    await list.reload();
    await stale;
    assert.deepStrictEqual(list.items.map((t) => t.id), ['new-task']);
    assert.strictEqual(list.error, undefined);

    // The same for a page asked for just before a filter change.
    filter = 'old';
    const staleMore = list.reload();
    filter = 'new';
    list.reset();
    await staleMore;
    assert.deepStrictEqual(list.items, [], 'the stale answer does not fill a listing that was reset');
  });
});
