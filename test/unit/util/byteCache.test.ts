import * as assert from 'assert';
import { ByteCache } from '../../../src/util/byteCache';

describe('util/byteCache: a cache bounded by bytes', () => {
  it('holds at most its limit, letting go of the least recently used first; a value larger than the limit is not kept', () => {
    const cache = new ByteCache<string>(100);
    cache.set('a', 'A', 40);
    cache.set('b', 'B', 40);
    assert.strictEqual(cache.get('a'), 'A'); // a used after b: b goes first
    cache.set('c', 'C', 40);
    assert.deepStrictEqual([cache.get('a'), cache.get('b'), cache.get('c'), cache.bytes], ['A', undefined, 'C', 80]);
    cache.set('huge', 'H', 101);
    assert.deepStrictEqual([cache.get('huge'), cache.bytes], [undefined, 80]);
    cache.set('a', 'A2', 10);
    assert.deepStrictEqual([cache.get('a'), cache.bytes], ['A2', 50]);
    cache.delete('c');
    cache.clear();
    assert.strictEqual(cache.bytes, 0);
  });
});
