import * as assert from 'assert';
import { later } from '../../../src/util/later';

describe('later (what is loaded on first use)', () => {
  it('loads nothing until asked, then once, every caller getting the same promise', async () => {
    let loads = 0;
    const load = later(async () => ({ n: ++loads }));
    assert.strictEqual(load.asked, false);
    assert.strictEqual(loads, 0, 'nothing loaded before the first call');
    const first = load();
    const second = load();
    assert.strictEqual(load.asked, true, 'asked once called, before it has loaded');
    assert.strictEqual(first, second);
    assert.deepStrictEqual(await first, { n: 1 });
    assert.deepStrictEqual(await load(), { n: 1 });
    assert.strictEqual(loads, 1);
  });

  it('a load that fails fails every caller alike', async () => {
    const load = later(async () => {
      throw new Error('no features.js');
    });
    await assert.rejects(load(), /no features\.js/);
    await assert.rejects(load(), /no features\.js/);
  });
});
