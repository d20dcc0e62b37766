import * as assert from 'assert';
import { Slots } from '../../../src/util/slots';

describe('Slots', () => {
  it('lets `size` holders in at once; the others in the order they came, as slots are released', async () => {
    const slots = new Slots(2);
    const order: string[] = [];
    const releases = new Map<string, () => void>();
    const holder = (name: string) =>
      slots.run(async () => {
        order.push(name);
        await new Promise<void>((resolve) => releases.set(name, resolve));
      });
    const all = ['a', 'b', 'c', 'd'].map(holder);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepStrictEqual(order, ['a', 'b']);
    releases.get('b')!();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepStrictEqual(order, ['a', 'b', 'c']);
    releases.get('a')!();
    releases.get('c')!();
    await new Promise((resolve) => setImmediate(resolve));
    releases.get('d')!();
    await Promise.all(all);
    assert.deepStrictEqual(order, ['a', 'b', 'c', 'd']);
  });

  it('releases the slot of a work that throws', async () => {
    const slots = new Slots(1);
    await assert.rejects(slots.run(async () => Promise.reject(new Error('no'))), /no/);
    assert.strictEqual(await slots.run(async () => 'next'), 'next');
  });
});
