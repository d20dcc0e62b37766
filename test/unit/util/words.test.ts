import * as assert from 'assert';
import { formatSize } from '../../../src/util/words';

describe('util/words: sizes', () => {
  it('a size reads in the unit it rounds to: the first 1 MB of a file (cut after a line) is "1.0 MB", never "1024 KB"', () => {
    const sizes = [1_048_500, 1_048_575, 1_047_552, 10_230, 1024 ** 3 - 1, 50 * 1024 ** 2];
    assert.deepStrictEqual(sizes.map(formatSize), ['1.0 MB', '1.0 MB', '1023 KB', '10 KB', '1.0 GB', '50 MB']);
  });
});
