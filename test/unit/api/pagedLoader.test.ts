import * as assert from 'assert';
import { PagedLoader, recordKey, type PageSource } from '../../../src/api/pagedLoader';
import type { Page } from '../../../src/api/types';

interface Item {
  id: string;
}

/** A listing served by offset (no next links), with a log of the requests; a test may change `ids` between requests. */
function offsetSource(ids: string[]) {
  const fake = {
    ids,
    requests: [] as { offset: number; limit: number }[],
    source: {
      page: async (offset: number, limit: number): Promise<Page<Item>> => {
        fake.requests.push({ offset, limit });
        await new Promise((r) => setImmediate(r)); // answered in a later turn, as a request is
        return { items: fake.ids.slice(offset, offset + limit).map((id) => ({ id })), total: fake.ids.length, next: undefined };
      },
      next: async (): Promise<Page<Item>> => {
        throw new Error('no next links here');
      },
    } satisfies PageSource<Item>,
  };
  return fake;
}

/** Pages of 3 numbers by `next` links, 7 in all; each call waits for the test to release it. */
function linkedSource() {
  const calls: string[] = [];
  const waiting: (() => void)[] = [];
  let fail = false;
  const page = (from: number): Promise<Page<Item>> =>
    new Promise((resolve, reject) =>
      waiting.push(() => {
        if (fail) {
          fail = false;
          return reject(new Error('boom'));
        }
        const items = [from, from + 1, from + 2].filter((n) => n < 7).map((n) => ({ id: String(n) }));
        resolve({ items, total: 7, next: from + 3 < 7 ? `next:${from + 3}` : undefined });
      }),
    );
  const loader = new PagedLoader<Item>(
    {
      page: (offset) => {
        calls.push(`offset:${offset}`);
        return page(offset);
      },
      next: (url) => {
        calls.push(url);
        return page(Number(url.split(':')[1]));
      },
    },
    { key: recordKey },
  );
  const release = async () => {
    while (waiting.length) waiting.shift()!();
    await new Promise((r) => setImmediate(r));
  };
  return { loader, calls, release, failNext: () => (fail = true) };
}

const many = (n: number, prefix = 't') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const ids = (loader: PagedLoader<Item>) => loader.items.map((i) => i.id);

describe('PagedLoader (every paged list)', () => {
  it('follows next links, counting what is left', async () => {
    const { loader, calls, release } = linkedSource();
    const a = loader.ensureLoaded();
    const b = loader.ensureLoaded();
    await release();
    await Promise.all([a, b]);
    assert.deepStrictEqual(ids(loader), ['0', '1', '2']);
    assert.strictEqual(loader.left, 4);
    for (let i = 0; i < 2; i++) {
      const more = loader.loadMore();
      await release();
      await more;
    }
    assert.deepStrictEqual(ids(loader), ['0', '1', '2', '3', '4', '5', '6']);
    assert.strictEqual(loader.hasMore, false);
    await loader.loadMore();
    assert.deepStrictEqual(calls, ['offset:0', 'next:3', 'next:6']);
  });

  it('pages by offset when the platform gives no next link, 100 at a time', async () => {
    const fake = offsetSource(many(250));
    const loader = new PagedLoader<Item>(fake.source, { key: recordKey });
    await loader.ensureLoaded();
    assert.strictEqual(loader.items.length, 100);
    assert.strictEqual(loader.left, 150);
    await loader.loadMore();
    await loader.loadMore();
    assert.strictEqual(loader.items.length, 250);
    assert.strictEqual(loader.hasMore, false);
    assert.deepStrictEqual(fake.requests, [{ offset: 0, limit: 100 }, { offset: 100, limit: 100 }, { offset: 200, limit: 100 }]);
    await loader.loadMore();
    assert.strictEqual(fake.requests.length, 3, 'nothing more to load, nothing sent');
  });

  it('a double click on "Load more" loads the page once (lock)', async () => {
    const { loader, calls, release } = linkedSource();
    const first = loader.ensureLoaded();
    await release();
    await first;
    const x = loader.loadMore();
    const y = loader.loadMore();
    assert.strictEqual(x, y);
    assert.strictEqual(loader.loading, true);
    await release();
    await Promise.all([x, y]);
    assert.strictEqual(loader.loading, false);
    assert.deepStrictEqual(calls, ['offset:0', 'next:3']);
    assert.deepStrictEqual(ids(loader), ['0', '1', '2', '3', '4', '5']);
  });

  it('never shows an item twice when newer items push older ones onto the next page', async () => {
    const fake = offsetSource(many(150));
    const loader = new PagedLoader<Item>(fake.source, { key: recordKey });
    await loader.ensureLoaded();
    fake.ids = [...many(3, 'new'), ...many(150)];
    await loader.loadMore();
    assert.strictEqual(new Set(ids(loader)).size, 150);
    assert.strictEqual(loader.items.length, 150);
  });

  it('a reload keeps what is shown until the answer is in, and reloads as many pages as were shown', async () => {
    const fake = offsetSource(many(250));
    const loader = new PagedLoader<Item>(fake.source, { key: recordKey });
    await loader.ensureLoaded();
    await loader.loadMore();
    const reloading = loader.reload(3);
    assert.strictEqual(loader.items.length, 200, 'still shown while reloading');
    await reloading;
    assert.strictEqual(loader.items.length, 200);
    assert.deepStrictEqual(fake.requests.slice(2), [{ offset: 0, limit: 100 }, { offset: 100, limit: 100 }]);
  });

  it('a reload reads again every page shown, however many (800 shown stay 800), unless told at most how many', async () => {
    const fake = offsetSource(many(950));
    const loader = new PagedLoader<Item>(fake.source, { key: recordKey });
    await loader.ensureLoaded();
    for (let i = 0; i < 7; i++) await loader.loadMore();
    fake.requests.length = 0;
    await loader.reload();
    assert.strictEqual(loader.items.length, 800);
    assert.deepStrictEqual(fake.requests.map((r) => r.offset), [0, 100, 200, 300, 400, 500, 600, 700]);
    await loader.reload(2);
    assert.strictEqual(loader.items.length, 200, 'a caller that sets a most (Reveal) reads that many');
  });

  it('a reload after "Load more" with a partly full last page keeps every item (150 shown stay 150)', async () => {
    const fake = offsetSource(many(150));
    const loader = new PagedLoader<Item>(fake.source, { key: recordKey });
    await loader.ensureLoaded();
    await loader.loadMore();
    assert.strictEqual(loader.items.length, 150);
    await loader.reload(3);
    assert.strictEqual(loader.items.length, 150);
    assert.deepStrictEqual(ids(loader), many(150));
    assert.strictEqual(loader.hasMore, false);
  });

  it('a failed first page is kept (no retry on redraw) until "Load more" asks again', async () => {
    let fail = true;
    const loader = new PagedLoader<Item>(
      {
        page: async () => {
          if (fail) throw new Error('down');
          return { items: [{ id: 'a' }], total: 1, next: undefined };
        },
        next: async () => ({ items: [], total: 0, next: undefined }),
      },
      { key: recordKey },
    );
    await loader.ensureLoaded();
    assert.strictEqual((loader.error as Error).message, 'down');
    assert.strictEqual(loader.loaded, true);
    await loader.ensureLoaded();
    assert.ok(loader.error, 'a redraw does not retry');
    fail = false;
    await loader.loadMore();
    assert.strictEqual(loader.error, undefined);
    assert.deepStrictEqual(ids(loader), ['a']);
  });

  it('a failed next page keeps what is shown and is asked for again', async () => {
    const { loader, calls, release, failNext } = linkedSource();
    const first = loader.ensureLoaded();
    await release();
    await first;
    failNext();
    const bad = loader.loadMore();
    await release();
    await bad;
    assert.ok(loader.error instanceof Error);
    assert.deepStrictEqual(ids(loader), ['0', '1', '2']);
    const again = loader.loadMore();
    await release();
    await again;
    assert.strictEqual(loader.error, undefined);
    assert.deepStrictEqual(calls, ['offset:0', 'next:3', 'next:3']);
  });

  it('a reset cancels the load under way: its signal is aborted and its late answer is dropped', async () => {
    const signals: AbortSignal[] = [];
    /** The answers asked for and not given yet, by what they will say. */
    const late = new Map<string, () => void>();
    let answer = 'old';
    const loader = new PagedLoader<Item>(
      {
        // Ignores the signal on purpose: answers whatever was asked, when the test lets it.
        page: async (_offset, _limit, signal) => {
          signals.push(signal);
          const mine = answer;
          await new Promise<void>((r) => late.set(mine, r));
          return { items: [{ id: `${mine}-item` }], total: 1, next: undefined };
        },
        next: async () => ({ items: [], total: 0, next: undefined }),
      },
      { key: recordKey },
    );
    const stale = loader.ensureLoaded();
    loader.reset();
    assert.strictEqual(signals[0].aborted, true);
    assert.strictEqual(loader.loading, false);
    answer = 'new';
    const fresh = loader.ensureLoaded();
    late.get('new')!();
    await fresh;
    late.get('old')!(); // the first request answers last
    await stale;
    assert.deepStrictEqual(ids(loader), ['new-item']);
    assert.strictEqual(loader.error, undefined);

    answer = 'old';
    const staleReload = loader.reload();
    loader.reset();
    late.get('old')!();
    await staleReload;
    assert.deepStrictEqual(loader.items, [], 'the stale answer does not fill a list that was reset');
    assert.strictEqual(loader.loaded, false);
  });

  it('keeps items as `readable` makes them, and `update` changes one in place', async () => {
    const loader = new PagedLoader<{ id: unknown; name?: unknown }>(
      {
        page: async () => ({ items: [{ id: 'a', name: 7 }, { id: 42 }, { id: 'b', name: 'bee' }], total: 3, next: undefined }),
        next: async () => ({ items: [], total: 0, next: undefined }),
      },
      { key: recordKey, readable: (item) => (typeof item.name === 'string' ? item : { id: item.id }) },
    );
    await loader.ensureLoaded();
    assert.deepStrictEqual(loader.items, [{ id: 'a' }, { id: 'b', name: 'bee' }], 'no key, no row; a bad name is left out');
    assert.strictEqual(loader.update('b', (old) => ({ ...old, name: 'bumble' })), true);
    assert.strictEqual(loader.update('b', (old) => ({ ...old, name: 9 })), true);
    assert.deepStrictEqual(loader.items[1], { id: 'b' });
    assert.strictEqual(loader.update('zz', (old) => old), false);
  });

  describe('reading ahead of "Load more"', () => {
    /**
     * `total` items by `next` links that carry offset and limit, as the platform's do; every request waits until the
     * test answers it (`answer(offset)`), or fails it (`fail(offset)`). `ahead` pages are read ahead.
     */
    function platform(total: number, ahead: () => number = () => 3) {
      const requests: number[] = [];
      const waiting = new Map<number, { resolve: (p: Page<Item>) => void; reject: (e: unknown) => void; signal: AbortSignal }>();
      const signals: AbortSignal[] = [];
      let version = 'v1';
      const link = (offset: number) => `https://api.test/v2/tasks?status=COMPLETED&offset=${offset}&limit=100`;
      const ask = (offset: number, signal: AbortSignal): Promise<Page<Item>> => {
        requests.push(offset);
        signals.push(signal);
        const said = version;
        return new Promise((resolve, reject) =>
          waiting.set(offset, {
            resolve: () => {
              const items = Array.from({ length: Math.max(0, Math.min(100, total - offset)) }, (_, i) => ({ id: `${said}-${offset + i}` }));
              resolve({ items, total, next: offset + 100 < total ? link(offset + 100) : undefined });
            },
            reject,
            signal,
          }),
        );
      };
      const loader = new PagedLoader<Item>(
        {
          page: (offset, _limit, signal) => ask(offset, signal),
          next: (url, signal) => ask(Number(new URL(url).searchParams.get('offset')), signal),
        },
        { key: recordKey, readAhead: ahead },
      );
      const settle = () => new Promise((r) => setImmediate(r));
      return {
        loader,
        requests,
        signals,
        waiting,
        setVersion: (v: string) => (version = v),
        answer: async (...offsets: number[]) => {
          for (const o of offsets) {
            const w = waiting.get(o);
            assert.ok(w, `a request for offset ${o} is waiting`);
            waiting.delete(o);
            w.resolve(undefined as never);
          }
          await settle();
        },
        fail: async (offset: number) => {
          const w = waiting.get(offset)!;
          waiting.delete(offset);
          w.reject(new Error(`page ${offset} failed`));
          await settle();
        },
      };
    }
    const numbers = (loader: PagedLoader<Item>) => loader.items.map((i) => Number(i.id.split('-')[1]));
    const upTo = (n: number) => Array.from({ length: n }, (_, i) => i);

    it('reads nothing ahead until "Load more" is asked for; then keeps the next 3 pages on their way', async () => {
      const p = platform(1_000);
      const first = p.loader.ensureLoaded();
      await p.answer(0);
      await first;
      assert.deepStrictEqual(p.requests, [0], 'a listing opened and left: one page, nothing more');
      const more = p.loader.loadMore();
      assert.deepStrictEqual(p.requests, [0, 100, 200, 300], 'the page asked for and the 2 after it, together');
      await p.answer(100);
      await more;
      assert.deepStrictEqual(numbers(p.loader), upTo(200));
      assert.deepStrictEqual(p.requests, [0, 100, 200, 300, 400], 'again 3 pages on their way beyond what is shown');
      assert.strictEqual(p.loader.loading, false, 'pages read ahead are not "loading": nothing was asked for that is not there');
    });

    it('pages to the end: each page asked once, none past the total, shown in order whatever order they answer in', async () => {
      const p = platform(750);
      const first = p.loader.ensureLoaded();
      await p.answer(0);
      await first;
      let more = p.loader.loadMore();
      // The pages ahead answer before the one asked for.
      await p.answer(300, 200);
      assert.deepStrictEqual(numbers(p.loader), upTo(100), 'nothing shown out of order');
      await p.answer(100);
      await more;
      assert.deepStrictEqual(numbers(p.loader), upTo(200));
      while (p.loader.hasMore) {
        more = p.loader.loadMore();
        for (const o of [...p.waiting.keys()].sort((a, b) => b - a)) await p.answer(o);
        await more;
      }
      assert.deepStrictEqual(numbers(p.loader), upTo(750), 'every item once, in order');
      assert.deepStrictEqual([...p.requests].sort((a, b) => a - b), [0, 100, 200, 300, 400, 500, 600, 700], 'each page once, nothing past the total of 750');
      assert.strictEqual(p.waiting.size, 0);
      await p.loader.loadMore();
      assert.strictEqual(p.requests.length, 8, 'at the end: nothing sent');
    });

    it('a "Load more" of a page on its way waits for it, not a second request; a double click asks once', async () => {
      const p = platform(1_000);
      const first = p.loader.ensureLoaded();
      await p.answer(0);
      await first;
      const a = p.loader.loadMore();
      await p.answer(100);
      await a;
      const b = p.loader.loadMore();
      const c = p.loader.loadMore();
      assert.strictEqual(b, c);
      await p.answer(200);
      await b;
      assert.deepStrictEqual(numbers(p.loader), upTo(300));
      assert.deepStrictEqual(p.requests, [0, 100, 200, 300, 400, 500]);
    });

    it('an action forgets the pages read ahead, older than it: the next Load more asks again and shows the platform as it is now', async () => {
      const p = platform(1_000);
      const first = p.loader.ensureLoaded();
      await p.answer(0);
      await first;
      const more = p.loader.loadMore();
      await p.answer(100, 200, 300);
      await more;
      // Pages 200 and 300 arrived ahead (as v1), then an action changed the listing (a task aborted: v2).
      p.setVersion('v2');
      p.loader.forgetAhead();
      const next = p.loader.loadMore();
      await p.answer(200);
      await next;
      assert.deepStrictEqual(
        p.loader.items.slice(200, 300).map((i) => i.id.split('-')[0]),
        Array(100).fill('v2'),
        'the page as the platform lists it after the action, not the one read before it',
      );
      assert.deepStrictEqual(p.requests.filter((o) => o === 200).length, 2, 'asked again once');
    });

    it('a reload or a reset cancels the pages on their way; their late answers never land, and reading ahead waits for "Load more" again', async () => {
      const p = platform(1_000);
      const first = p.loader.ensureLoaded();
      await p.answer(0);
      await first;
      const more = p.loader.loadMore();
      await p.answer(100);
      await more;
      const ahead = p.signals.slice(2);
      assert.deepStrictEqual(p.requests.slice(2), [200, 300, 400]);
      p.setVersion('v2');
      const reload = p.loader.reload(3);
      assert.ok(ahead.every((s) => s.aborted), 'the pages read ahead are cancelled');
      await p.answer(0);
      await p.answer(100);
      await reload;
      assert.deepStrictEqual(p.requests.slice(5), [0, 100], 'the reload reads what was shown, nothing ahead');
      // The old pages answer late: nothing of them is shown, now or after the next "Load more".
      await p.answer(200, 300, 400);
      const again = p.loader.loadMore();
      assert.deepStrictEqual(p.requests.slice(7), [200, 300, 400], 'asked again, of the listing as it is now');
      await p.answer(200);
      await again;
      assert.deepStrictEqual(p.loader.items.map((i) => i.id.split('-')[0]), Array(300).fill('v2'));
      assert.deepStrictEqual(numbers(p.loader), upTo(300));
      assert.deepStrictEqual(p.requests.slice(10), [500]);

      p.loader.reset();
      assert.ok(p.signals.slice(8).every((s) => s.aborted));
      await p.answer(300, 400, 500);
      assert.deepStrictEqual(p.loader.items, [], 'a reset list stays empty');
      const reopened = p.loader.ensureLoaded();
      await p.answer(0);
      await reopened;
      assert.deepStrictEqual(p.requests.slice(11), [0], 'opened again: one page');
    });

    it("a page read ahead that failed shows where Load more is when its turn comes; Load more asks for it again and keeps the pages after it", async () => {
      const p = platform(1_000);
      const first = p.loader.ensureLoaded();
      await p.answer(0);
      await first;
      let more = p.loader.loadMore();
      await p.fail(200);
      assert.strictEqual(p.loader.error, undefined, 'not shown before its turn');
      await p.answer(100);
      await more;
      await p.answer(300, 400);
      more = p.loader.loadMore();
      await more;
      assert.match(String(p.loader.error), /page 200 failed/);
      assert.deepStrictEqual(numbers(p.loader), upTo(200), 'what is shown stays');
      const count = p.requests.length;
      more = p.loader.loadMore();
      assert.deepStrictEqual(p.requests.slice(count), [200], 'only the failed page again: 300 and 400 are there already');
      await p.answer(200);
      await more;
      assert.strictEqual(p.loader.error, undefined);
      more = p.loader.loadMore();
      await more;
      assert.deepStrictEqual(numbers(p.loader), upTo(400), 'the page read before the failure is shown in its place');
      assert.deepStrictEqual([...p.requests].sort((a, b) => a - b), [0, 100, 200, 200, 300, 400, 500, 600]);
    });

    it('reads nothing ahead while `readAhead` says 0 (the API budget is low), and again once it allows', async () => {
      let allowed = 0;
      const p = platform(1_000, () => allowed);
      const first = p.loader.ensureLoaded();
      await p.answer(0);
      await first;
      let more = p.loader.loadMore();
      await p.answer(100);
      await more;
      assert.deepStrictEqual(p.requests, [0, 100], 'one page after another');
      allowed = 2;
      more = p.loader.loadMore();
      assert.deepStrictEqual(p.requests, [0, 100, 200, 300]);
      await p.answer(200);
      await more;
      assert.deepStrictEqual(p.requests, [0, 100, 200, 300, 400]);
    });

    it('a source that throws at once for a page read ahead fails that page only, when its turn comes', async () => {
      const link = (offset: number) => `https://api.test/v2/tasks?offset=${offset}&limit=100`;
      const answer = (offset: number): Page<Item> => ({ items: Array.from({ length: 100 }, (_, i) => ({ id: String(offset + i) })), total: 400, next: offset + 100 < 400 ? link(offset + 100) : undefined });
      const loader = new PagedLoader<Item>(
        {
          page: async () => answer(0),
          next: (url) => {
            const offset = Number(new URL(url).searchParams.get('offset'));
            if (offset === 200) throw new Error('thrown, not rejected');
            return Promise.resolve(answer(offset));
          },
        },
        { key: recordKey, readAhead: () => 3 },
      );
      await loader.ensureLoaded();
      await loader.loadMore();
      assert.strictEqual(loader.items.length, 200);
      await loader.loadMore();
      assert.match(String(loader.error), /thrown, not rejected/);
      assert.strictEqual(loader.items.length, 200);
    });

    it('reads nothing ahead of a link that does not say its offset and limit (a scroll token)', async () => {
      const calls: string[] = [];
      const loader = new PagedLoader<Item>(
        {
          page: async () => (calls.push('first'), { items: [{ id: 'a' }], total: 5, next: 'https://api.test/v2/files/scroll?token=x' }),
          next: async (url) => (calls.push(url), { items: [{ id: url.slice(-1) }], total: 5, next: `https://api.test/v2/files/scroll?token=${calls.length}` }),
        },
        { key: recordKey, readAhead: () => 3 },
      );
      await loader.ensureLoaded();
      await loader.loadMore();
      await loader.loadMore();
      assert.deepStrictEqual(calls, ['first', 'https://api.test/v2/files/scroll?token=x', 'https://api.test/v2/files/scroll?token=2']);
    });
  });
});
