import * as assert from 'assert';
import { clashWords, lookupDestination, planClashes } from '../../../src/copy/clashes';
import type { FileRecord, Page } from '../../../src/api/types';
import { ApiError } from '../../../src/api/errors';

const file = (name: string, type: 'file' | 'folder' = 'file'): FileRecord => ({ href: '', id: name, name, type }) as FileRecord;

/** A fake files API over one destination listing: counts calls, pages of `pageSize`. */
function fakeFiles(listing: FileRecord[], pageSize = 100, failAt?: number) {
  const calls: { name?: string; offset?: number }[] = [];
  const page = (offset: number): Page<FileRecord> => ({
    items: listing.slice(offset, offset + pageSize),
    total: listing.length,
    next: offset + pageSize < listing.length ? `next:${offset + pageSize}` : undefined,
  });
  const maybeFail = () => {
    if (failAt !== undefined && calls.length === failAt) throw new ApiError({ kind: 'http', status: 503, message: 'unavailable' });
  };
  return {
    calls,
    api: {
      list: async (_location: unknown, options: { name?: string } = {}) => {
        calls.push({ name: options.name, offset: 0 });
        maybeFail();
        if (options.name !== undefined) {
          const items = listing.filter((f) => f.name === options.name);
          return { items, total: items.length, next: undefined };
        }
        return page(0);
      },
      next: async (url: string) => {
        const offset = Number(url.split(':')[1]);
        calls.push({ offset });
        maybeFail();
        return page(offset);
      },
    },
  };
}

describe('name clash planner', () => {
  it('a taken file name arrives as 1_<name>, the next free number when that is taken too; a folder onto a folder is merged', () => {
    const plan = planClashes(
      [{ name: 'sample.bam', folder: false }, { name: 'reads.fq', folder: false }, { name: 'results', folder: true }, { name: 'new.txt', folder: false }],
      [{ name: 'sample.bam', folder: false }, { name: '1_sample.bam', folder: false }, { name: 'reads.fq', folder: false }, { name: 'results', folder: true }],
    );
    assert.deepStrictEqual(plan.renamed.map((r) => r.to), ['2_sample.bam', '1_reads.fq']);
    assert.deepStrictEqual(plan.merged, ['results']);
    assert.deepStrictEqual(clashWords(plan, { complete: true }), ['2 files will arrive renamed (2_sample.bam, 1_reads.fq); 1 folder will be merged (results).']);
  });

  it('a folder onto a file (or a file onto a folder) is renamed, not merged; two items of one name clash with each other', () => {
    const plan = planClashes(
      [{ name: 'x', folder: true }, { name: 'dir', folder: false }, { name: 'a.txt', folder: false }, { name: 'a.txt', folder: false }],
      [{ name: 'x', folder: false }, { name: 'dir', folder: true }],
    );
    assert.deepStrictEqual(plan.renamed.map((r) => [r.from, r.to, r.folder]), [['x', '1_x', true], ['dir', '1_dir', false], ['a.txt', '1_a.txt', false]]);
    assert.deepStrictEqual(plan.merged, []);
  });

  it('says when nothing clashes, and says so when the check could not finish', () => {
    const none = planClashes([{ name: 'a', folder: false }], []);
    assert.deepStrictEqual(clashWords(none, { complete: true }), ['No name is taken in the destination: every item keeps its name.']);
    const words = clashWords(none, { complete: false, problem: 'The platform is under maintenance. Try again later.' });
    assert.deepStrictEqual(words, ['The names in the destination could not all be checked. The platform is under maintenance. Try again later. Some items may arrive renamed or merged. Copy anyway?']);
  });

  it('looks up up to 20 names one filtered call each, and follows a single rename to a free name', async () => {
    const fake = fakeFiles([file('sample.bam'), file('1_sample.bam'), file('other')]);
    const lookup = await lookupDestination(fake.api, { project: 'u/p' }, [{ name: 'sample.bam', folder: false }]);
    assert.deepStrictEqual(fake.calls.map((c) => c.name), ['sample.bam', '1_sample.bam', '2_sample.bam']);
    assert.strictEqual(lookup.complete, true);
    assert.strictEqual(lookup.requests, 3);
    assert.deepStrictEqual(planClashes([{ name: 'sample.bam', folder: false }], lookup.existing).renamed[0].to, '2_sample.bam');
  });

  it('more than 20 names read the listing, 100 a page, at most 10 pages; past that it says it could not finish', async () => {
    const names = Array.from({ length: 25 }, (_, i) => ({ name: `f${i}`, folder: false }));
    const small = fakeFiles(Array.from({ length: 250 }, (_, i) => file(`f${i * 2}`)));
    const done = await lookupDestination(small.api, { parent: 'a'.repeat(24) }, names);
    assert.deepStrictEqual([done.complete, done.requests], [true, 3]);
    assert.strictEqual(planClashes(names, done.existing).renamed.length, 13, 'f0, f2, … f24 are taken');
    const big = fakeFiles(Array.from({ length: 1500 }, (_, i) => file(`g${i}`)));
    const partial = await lookupDestination(big.api, { parent: 'a'.repeat(24) }, names);
    assert.deepStrictEqual([partial.complete, partial.requests], [false, 10]);
    assert.match(partial.problem!, /more than 1,000 entries/);
  });

  it('a failing lookup is reported as unfinished, not thrown', async () => {
    const fake = fakeFiles([file('a')], 100, 1);
    const lookup = await lookupDestination(fake.api, { project: 'u/p' }, [{ name: 'a', folder: false }, { name: 'b', folder: false }]);
    assert.strictEqual(lookup.complete, false);
    assert.ok(lookup.problem);
  });
});
