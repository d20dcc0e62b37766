import * as assert from 'assert';
import { SCHEMES } from '../../../src/keys/schemes';
import { manifest } from './manifest';

describe('keys/schemes: the schemes of the read-only documents', () => {
  it('a log\'s tab tooltip is where the log is: the manifest formats the log scheme\'s labels from its path', () => {
    const formatters = manifest().contributes.resourceLabelFormatters ?? [];
    assert.deepStrictEqual(formatters.map((f) => [f.scheme, f.formatting.label]), [[SCHEMES.log, '${query.path}']]);
  });
});
