import * as assert from 'assert';
import { contributedLanguages, languageByName } from '../../../src/remote/innerLanguage';

describe('remote/innerLanguage: a decompressed .gz opens in its inner file\'s language', () => {
  const contributions = [
    { id: 'plaintext', extensions: ['.txt'] },
    { id: 'json', extensions: ['.json', '.jsonl'], filenames: ['.babelrc'] },
    { id: 'vcf', extensions: ['.vcf'] },
    { id: 'gvcf', extensions: ['.g.vcf'] },
    { id: 'makefile', filenames: ['Makefile'] },
  ];

  it('matches the whole name first, then the longest extension, ignoring case', () => {
    assert.strictEqual(languageByName('calls.VCF', contributions), 'vcf');
    assert.strictEqual(languageByName('sample.g.vcf', contributions), 'gvcf');
    assert.strictEqual(languageByName('makefile', contributions), 'makefile');
    assert.strictEqual(languageByName('rows.jsonl', contributions), 'json');
  });

  it('knows nothing of a name no extension claims, nor of a bare extension', () => {
    assert.strictEqual(languageByName('reads.fastq', contributions), undefined);
    assert.strictEqual(languageByName('.vcf', contributions), undefined);
  });

  it('reads the languages of a package.json, leaving out what is malformed', () => {
    assert.deepStrictEqual(contributedLanguages({ contributes: { languages: [{ id: 'bed', extensions: ['.bed', 3] }, { extensions: ['.x'] }, 'nope'] } }), [{ id: 'bed', extensions: ['.bed'], filenames: [] }]);
    assert.deepStrictEqual(contributedLanguages(undefined), []);
    assert.deepStrictEqual(contributedLanguages({ contributes: { languages: {} } }), []);
  });
});
