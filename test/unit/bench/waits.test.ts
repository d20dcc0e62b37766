import * as assert from 'assert';
import { passes } from '../../../scripts/bench/figures';
import { CASES } from '../../../scripts/bench/waits/waitsCases';
import type { CaseResult, TimedRun } from '../../../scripts/bench/waits/waitsContext';
import { requestSummary, waitsFigures } from '../../../scripts/bench/waits/waitsFigures';
import { runWaits } from '../../../scripts/bench/waits/waitsScenario';

const run = (...waits: number[]): TimedRun => ({ waits, requests: [{ method: 'GET', path: '/v2/user', at: 12.4 }], storageRequests: 0 });

const result = (over: Partial<CaseResult> = {}): CaseResult => ({
  id: 'openGroup',
  latencyMs: 80,
  runs: [run(300), run(500), run(200), run(400), run(900)],
  floor: [70, 50, 60, 300, 40],
  network: [90, 85, 400, 95, 100],
  host: 'code-server, VS Code 1.139.1',
  ...over,
});

describe('bench waits: figures', () => {
  it("the product's median against an ideal of the requests' median and the drawing floor's, limited at 2 × ideal + 250 ms", () => {
    const [figure] = waitsFigures([result()]);
    assert.strictEqual(figure.section, 'What a person waits for, 80 ms round trip');
    assert.strictEqual(figure.value, 400);
    assert.strictEqual(figure.ideal, 95 + 60);
    assert.strictEqual(figure.limit, 2 * 155 + 250);
    assert.strictEqual(passes(figure), true);
    assert.strictEqual(passes(waitsFigures([result({ runs: [run(600), run(700), run(800)] })])[0]), false);
  });

  it('adds up the waits of a run (the question the person answers in between is theirs) and says them apart', () => {
    const [figure] = waitsFigures([result({ id: 'download', runs: [run(100, 900), run(300, 1000), run(200, 2000)] })]);
    assert.strictEqual(figure.value, 1300);
    assert.match(figure.note!, /samples 1000, 1300, 2200 ms \(300 \+ 1000 ms\)/);
  });

  it('keeps its name whatever number of runs made it (bench-results.json merges by name), and fails without a value when a run failed', () => {
    const whole = waitsFigures([result()])[0];
    const failed = waitsFigures([result({ runs: [run(300)], error: 'waited 30 s for the group closed' })])[0];
    assert.strictEqual(failed.name, whole.name);
    assert.strictEqual(failed.value, undefined);
    assert.strictEqual(passes(failed), false);
    assert.match(failed.note!, /^failed: waited 30 s for the group closed$/);
  });

  it("says the median run's requests by method and path, IDs left out, with when they arrived after the action", () => {
    const summary = requestSummary([
      { method: 'GET', path: '/v2/user', at: 25.2 },
      { method: 'GET', path: '/v2/tasks?status=RUNNING&limit=1', at: 253 },
      { method: 'GET', path: '/v2/files/5f3e0c1d2b4a6e8f9a0b1c2d/download_info', at: 301.6 },
      { method: 'GET', path: '/v2/tasks?status=QUEUED&limit=1', at: 589.4 },
    ]);
    assert.strictEqual(summary, 'GET user at +25 ms, GET tasks ×2 at +253–589 ms, GET files/download_info at +302 ms');
    assert.strictEqual(requestSummary([]), 'none');
  });
});

describe('bench waits: the cases', () => {
  it('are all built, Run Task from the task document among them (issue 39): each times a run and sends its requests bare', () => {
    assert.ok(CASES.some((c) => c.id === 'runTask'));
    assert.deepStrictEqual(CASES.filter((c) => c.pending || !c.run || !c.network).map((c) => c.id), []);
  });

  it('refuses a case it does not know, naming the cases', async () => {
    await assert.rejects(runWaits(() => undefined, { cases: ['signin'] }), /no such case: signin \(the cases: signIn, openGroup, openFile, download, findByTag, runTask\)/);
  });
});
