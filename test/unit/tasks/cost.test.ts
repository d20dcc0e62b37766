import * as assert from 'assert';
import type { TaskListQuery } from '../../../src/api/tasks';
import type { Page, Task } from '../../../src/api/types';
import { costOf, costWords, formatMoney, mergeCosts, moneyWords, priceWords, readCost } from '../../../src/tasks/cost';
import { FilterModel } from '../../../src/tasks/filterModel';
import { groupView, taskTooltip } from '../../../src/tasks/taskRows';
import { TaskTreeModel } from '../../../src/tasks/taskTree';
import type { GroupNode } from '../../../src/tasks/taskNodes';
import { FakeTasks, task } from '../../support/fakeTasks';
import { memoryState } from '../../support/sharedState';

const usd = (amount: number) => ({ price: { currency: 'USD', amount } });

/** A list source of `n` tasks with a price each, 100 a page through `next` links; it records the queries it got. */
function pricedSource(prices: (Task['price'] | undefined)[]) {
  const queries: string[] = [];
  const page = (offset: number): Page<Task> => ({
    items: prices.slice(offset, offset + 100).map((price, i) => ({ href: '', id: `t${offset + i}`, name: '', ...(price ? { price } : {}) })),
    total: prices.length,
    next: offset + 100 < prices.length ? `next:${offset + 100}` : undefined,
  });
  return {
    queries,
    list: async (query: TaskListQuery, p: { offset?: number; limit?: number }) => {
      queries.push(`${JSON.stringify(query)} ${p.offset}+${p.limit}`);
      return page(p.offset ?? 0);
    },
    next: async (url: string) => {
      queries.push(url);
      return page(Number(url.slice('next:'.length)));
    },
  };
}

describe('cost', () => {
  it('formats money one way: the currency sign, digit groups, two decimals; an unknown code after the number', () => {
    assert.strictEqual(formatMoney(1318.4, 'USD'), '$1,318.40');
    assert.strictEqual(formatMoney(0.0234, 'USD'), '$0.02');
    assert.strictEqual(formatMoney(12, 'EUR'), '€12.00');
    assert.strictEqual(formatMoney(3.5, undefined), '$3.50');
    assert.strictEqual(formatMoney(3.5, 'usd'), '$3.50');
    assert.strictEqual(formatMoney(1234.5, 'NOT A CODE'), '1,234.50 NOT A CODE');
  });

  it('sums one currency exactly, and says how many tasks had no price', () => {
    // 1,000 × $0.10 in binary floating point is 99.9999…; the total is kept exact.
    const total = costOf([...Array.from({ length: 1000 }, () => usd(0.1)), {}, { price: { currency: 'USD' } }, { price: { currency: 'USD', amount: NaN } }]);
    assert.deepStrictEqual(total, { tasks: 1003, unpriced: 3, sums: { USD: 100 } });
    assert.strictEqual(costWords(total), '1,003 tasks, $100.00 (3 without a price)');
    assert.strictEqual(costWords(costOf([usd(1318.4)])), '1 task, $1,318.40');
    assert.strictEqual(costWords(costOf([{}, {}])), '2 tasks, none with a price');
    assert.strictEqual(costWords(costOf([])), 'no tasks');
  });

  it('sums mixed currencies apart, one sum each in the order met', () => {
    const total = costOf([usd(1.25), { price: { currency: 'EUR', amount: 2 } }, usd(3.5), { price: { currency: 'EUR', amount: 0.4 } }, {}]);
    assert.deepStrictEqual(total.sums, { USD: 4.75, EUR: 2.4 });
    assert.strictEqual(moneyWords(total), '$4.75 + €2.40');
    assert.strictEqual(costWords(total), '5 tasks, $4.75 + €2.40 (1 without a price)');
    assert.deepStrictEqual(mergeCosts(total, costOf([{ price: { currency: 'GBP', amount: 1 } }])).sums, { USD: 4.75, EUR: 2.4, GBP: 1 });
    assert.deepStrictEqual(total.sums, { USD: 4.75, EUR: 2.4 }, 'merging leaves the totals as they were');
  });

  it("gives a task's price with its breakdown, the parts the platform sends as text", () => {
    assert.strictEqual(priceWords({ currency: 'USD', amount: 1.23, breakdown: { storage: '0.10', computation: '1.10', data_transfer: '0.03' } }), '$1.23 (computation $1.10, storage $0.10, data transfer $0.03)');
    assert.strictEqual(priceWords({ currency: 'USD', amount: 1.23, breakdown: { computation: 'n/a' } }), '$1.23');
    assert.strictEqual(priceWords({ currency: 'USD' }), undefined);
    assert.strictEqual(priceWords(undefined), undefined);
  });

  it("shows the price in a task's tooltip, a batch parent's as its children's, and the Abort confirmation's cost the same way", () => {
    const one = taskTooltip(task(1, 'COMPLETED', { price: { currency: 'USD', amount: 2, breakdown: { computation: '1.90', storage: '0.10' } } }), Date.UTC(2026, 0, 2));
    assert.ok(one.includes('Price: $2.00 (computation $1.90, storage $0.10)'), one);
    const batch = taskTooltip(task(2, 'FAILED', { batch: true, price: { currency: 'USD', amount: 41.2 }, execution_status: { steps_completed: 1, steps_total: 1, completed: 999, failed: 1 } }), Date.UTC(2026, 0, 2));
    assert.ok(batch.includes('Its children cost: $41.20'), batch);
    assert.ok(!/Price:|steps/.test(batch), `a batch's own steps and a price that is its children's are not said as its own: ${batch}`);
  });

  it("adds a group's cost to its tooltip once known", () => {
    assert.strictEqual(groupView('FAILED', 214, undefined, '214 tasks, $1,318.40').tooltip, '214 failed tasks match\nCost: 214 tasks, $1,318.40');
    assert.strictEqual(groupView('FAILED', 214).tooltip, '214 failed tasks match');
  });

  it('reads a total 100 tasks a page with the price field only, in the default order, following the next links', async () => {
    const source = pricedSource([...Array.from({ length: 249 }, () => usd(1).price), undefined]);
    const seen: number[] = [];
    let paced = 0;
    const total = await readCost(source, { status: 'FAILED', project: 'me/p', order_by: 'created_time', order: 'desc' }, { onPage: (t) => seen.push(t.tasks), beforePage: async () => void paced++ });
    assert.deepStrictEqual(total, { tasks: 250, unpriced: 1, sums: { USD: 249 } });
    assert.deepStrictEqual(source.queries, ['{"status":"FAILED","project":"me/p","fields":"price"} 0+100', 'next:100', 'next:200']);
    assert.deepStrictEqual(seen, [100, 200, 250]);
    assert.strictEqual(paced, 3, 'the budget is asked before each page');
  });

  it('a page that comes back empty before the end is read past: the total is never that of the pages before it (#44)', async () => {
    const source = pricedSource(Array.from({ length: 1_000 }, () => usd(1).price));
    const next = source.next;
    source.next = async (url) => (url === 'next:800' ? { items: [], total: 1_000, next: 'next:900' } : next(url));
    const seen: string[] = [];
    const total = await readCost(source, { parent: 'p' }, { onPage: (t, matching) => seen.push(`${t.tasks} of ${matching}`) });
    assert.deepStrictEqual([total.tasks, seen[seen.length - 1]], [900, '900 of 1000']);
    assert.ok(seen.includes('800 of 1000'), 'the empty page read past');
  });

  it("keeps a group's cost for its tooltip until its count changes; with nothing chosen, adds up each status of the filter", async () => {
    const memento = memoryState();
    const filters = new FilterModel(memento);
    const source = new FakeTasks([task(1, 'FAILED', usd(2)), task(2, 'FAILED', usd(3)), task(3, 'COMPLETED', { price: { currency: 'EUR', amount: 1 } }), task(4, 'RUNNING')]);
    const tree = new TaskTreeModel({ source, filter: filters, store: memento, signedIn: () => true, now: () => Date.UTC(2026, 0, 2) });
    await tree.getChildren();
    const failed = tree.group('FAILED') as GroupNode;
    assert.strictEqual(tree.rowView(failed).tooltip, '2 failed tasks match');
    assert.deepStrictEqual(await tree.cost(failed), { tasks: 2, unpriced: 0, sums: { USD: 5 } });
    assert.strictEqual(tree.rowView(failed).tooltip, '2 failed tasks match\nCost: 2 tasks, $5.00');
    failed.count = 3;
    assert.strictEqual(tree.rowView(failed).tooltip, '3 failed tasks match', 'a cost read for another count is not shown');
    await filters.update({ statuses: ['FAILED', 'COMPLETED'] });
    assert.deepStrictEqual(await tree.cost(undefined), { tasks: 3, unpriced: 0, sums: { USD: 5, EUR: 1 } });
    await filters.clear();
    assert.deepStrictEqual(await tree.cost(undefined), { tasks: 4, unpriced: 1, sums: { USD: 5, EUR: 1 } });
  });
});
