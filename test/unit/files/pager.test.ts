import * as assert from 'assert';
import type { Page } from '../../../src/api/types';
import { Pager } from '../../../src/files/pager';

/** Pages of numbers, 3 per page, 7 in all; each call waits for the test to release it. */
function source() {
  const calls: string[] = [];
  const waiting: (() => void)[] = [];
  let fail = false;
  const page = (from: number): Promise<Page<number>> =>
    new Promise((resolve, reject) =>
      waiting.push(() => {
        if (fail) {
          fail = false;
          return reject(new Error('boom'));
        }
        const items = [from, from + 1, from + 2].filter((n) => n < 7);
        resolve({ items, total: 7, next: from + 3 < 7 ? `next:${from + 3}` : undefined });
      }),
    );
  const pager = new Pager<number>(
    () => {
      calls.push('first');
      return page(0);
    },
    (url) => {
      calls.push(url);
      return page(Number(url.split(':')[1]));
    },
  );
  const release = async () => {
    while (waiting.length) waiting.shift()!();
    await new Promise((r) => setImmediate(r));
  };
  return { pager, calls, release, failNext: () => (fail = true) };
}

describe('Pager (children loaded page by page)', () => {
  it('loads the first page once, then the next pages, counting what is left', async () => {
    const { pager, calls, release } = source();
    const a = pager.ensureFirst();
    const b = pager.ensureFirst();
    await release();
    await Promise.all([a, b]);
    assert.deepStrictEqual(calls, ['first']);
    assert.deepStrictEqual([...pager.items], [0, 1, 2]);
    assert.strictEqual(pager.remaining, 4);
    assert.ok(pager.hasMore);
    const c = pager.loadMore();
    await release();
    await c;
    assert.strictEqual(pager.remaining, 1);
    const d = pager.loadMore();
    await release();
    await d;
    assert.deepStrictEqual([...pager.items], [0, 1, 2, 3, 4, 5, 6]);
    assert.ok(!pager.hasMore);
    await pager.loadMore();
    assert.deepStrictEqual(calls, ['first', 'next:3', 'next:6']);
  });

  it('a double click on "Load more" loads the page once (lock)', async () => {
    const { pager, calls, release } = source();
    const first = pager.ensureFirst();
    await release();
    await first;
    const x = pager.loadMore();
    const y = pager.loadMore();
    assert.strictEqual(x, y);
    await release();
    await Promise.all([x, y]);
    assert.deepStrictEqual(calls, ['first', 'next:3']);
    assert.deepStrictEqual([...pager.items], [0, 1, 2, 3, 4, 5]);
  });

  it('keeps an error for the view and retries the same page', async () => {
    const { pager, calls, release, failNext } = source();
    const first = pager.ensureFirst();
    await release();
    await first;
    failNext();
    const bad = pager.loadMore();
    await release();
    await bad;
    assert.ok(pager.error instanceof Error);
    assert.deepStrictEqual([...pager.items], [0, 1, 2]);
    const again = pager.loadMore();
    await release();
    await again;
    assert.strictEqual(pager.error, undefined);
    assert.deepStrictEqual(calls, ['first', 'next:3', 'next:3']);
  });

  it('drops a page that arrives after a reset', async () => {
    const { pager, release } = source();
    const stale = pager.ensureFirst();
    pager.reset();
    await release();
    await stale;
    assert.deepStrictEqual([...pager.items], []);
    assert.ok(!pager.isStarted);
  });
});
