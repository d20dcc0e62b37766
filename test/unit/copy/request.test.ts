import * as assert from 'assert';
import {
  buildCopyItems,
  checkSources,
  confirmationNotes,
  confirmationText,
  type CopyDestination,
  describeDestination,
  destinationProblem,
  planCopy,
  sourceProblems,
  splitItems,
} from '../../../src/copy/request';

const A = '567890abc8a5639cc6722063';
const B = '567890abc8a5639cc6722064';
const C = '567890abc8a5639cc6722065';
const FOLDER = '5a0f0f0f0f0f0f0f0f0f0f0f';
const ROOT = '5b0000000000000000000001';

const sameFolder: CopyDestination = { kind: 'sameProjectFolder', project: 'rfranklin/src', folder: FOLDER, path: ['results'] };
const otherFolder: CopyDestination = { kind: 'otherProjectFolder', project: 'rfranklin/dest', folder: FOLDER, path: ['results', '2026'] };
const otherRoot: CopyDestination = { kind: 'projectRoot', project: 'rfranklin/dest', rootFolder: ROOT };

const ids = (n: number) => Array.from({ length: n }, (_, i) => (0x5000000000 + i).toString(16).padStart(24, '0'));

describe('copy request builder', () => {
  describe('destination kinds', () => {
    it('a folder in the same project is sent as parent only', () => {
      assert.deepStrictEqual(buildCopyItems([A, B], sameFolder), [
        { file: A, parent: FOLDER },
        { file: B, parent: FOLDER },
      ]);
    });
    it('a folder in another project is sent as parent alone (no project)', () => {
      const items = buildCopyItems([A], otherFolder);
      assert.deepStrictEqual(items, [{ file: A, parent: FOLDER }]);
      assert.ok(!('project' in items[0]));
    });
    it("another project's root is sent as project only", () => {
      const items = buildCopyItems([A, B], otherRoot);
      assert.deepStrictEqual(items, [
        { file: A, project: 'rfranklin/dest' },
        { file: B, project: 'rfranklin/dest' },
      ]);
      for (const item of items) assert.deepStrictEqual(Object.keys(item).sort(), ['file', 'project']);
    });
    it('never sends both parent and project, nor an empty name', () => {
      for (const destination of [sameFolder, otherFolder, otherRoot]) {
        for (const item of buildCopyItems([A, B, C], destination)) {
          assert.strictEqual(('parent' in item ? 1 : 0) + ('project' in item ? 1 : 0), 1);
          assert.ok(!('name' in item));
        }
      }
    });
  });

  describe('rename', () => {
    it('adds name for a single item', () => {
      assert.deepStrictEqual(buildCopyItems([A], otherFolder, ' renamed.bam '), [{ file: A, parent: FOLDER, name: 'renamed.bam' }]);
    });
    it('an empty name keeps the original name (no name field)', () => {
      assert.deepStrictEqual(buildCopyItems([A], otherRoot, '   '), [{ file: A, project: 'rfranklin/dest' }]);
    });
    it('refuses a new name for several items', () => {
      assert.throws(() => buildCopyItems([A, B], otherRoot, 'x'), /single item/);
      const plan = planCopy({ sources: [A, B], destination: otherRoot, newName: 'x' });
      assert.strictEqual(plan.ok, false);
    });
    it('refuses a name with a slash', () => {
      const plan = planCopy({ sources: [A], destination: otherRoot, newName: 'a/b' });
      assert.ok(!plan.ok && plan.problems.some((p) => p.includes('/')));
    });
  });

  describe('splitting', () => {
    it('splits 250 items into 100 + 100 + 50, in order', () => {
      const all = ids(250);
      const plan = planCopy({ sources: all, destination: otherFolder });
      assert.ok(plan.ok);
      assert.deepStrictEqual(plan.batches.map((b) => b.length), [100, 100, 50]);
      assert.deepStrictEqual(plan.batches.flat().map((i) => i.file), all);
    });
    it('follows the setting, clamped to 1…100', () => {
      assert.deepStrictEqual(splitItems(ids(7), 3).map((b) => b.length), [3, 3, 1]);
      assert.deepStrictEqual(splitItems(ids(150), 500).map((b) => b.length), [100, 50]);
      assert.deepStrictEqual(splitItems(ids(2), 0).map((b) => b.length), [1, 1]);
      assert.deepStrictEqual(splitItems(ids(100)).length, 1);
      assert.deepStrictEqual(splitItems(ids(101)).map((b) => b.length), [100, 1]);
    });
  });

  describe('validation', () => {
    it('names malformed IDs and sends nothing', () => {
      const plan = planCopy({ sources: [A, 'not-an-id', '567890abc8a5639cc672206'], destination: otherRoot });
      assert.ok(!plan.ok);
      assert.match(plan.problems[0], /"not-an-id"/);
      assert.match(plan.problems[0], /"567890abc8a5639cc672206"/);
    });
    it('drops duplicates (case-insensitive) with a count', () => {
      const check = checkSources([A, B, A, A.toUpperCase(), B]);
      assert.deepStrictEqual(check.ids, [A, B]);
      assert.strictEqual(check.duplicates, 3);
      const plan = planCopy({ sources: [A, A, B], destination: otherRoot });
      assert.ok(plan.ok && plan.duplicates === 1 && plan.items.length === 2);
    });
    it("refuses a project's root folder", () => {
      const plan = planCopy({ sources: [A, ROOT], destination: otherFolder, rootFolders: new Set([ROOT]) });
      assert.ok(!plan.ok);
      assert.match(plan.problems.join(' '), /root folder/);
      assert.deepStrictEqual(plan.check.roots, [ROOT]);
    });
    it('refuses copying a folder into itself', () => {
      const plan = planCopy({ sources: [FOLDER], destination: otherFolder });
      assert.ok(!plan.ok && /into itself/.test(plan.problems.join(' ')));
    });
    it('refuses copying a folder into itself whatever the case of either ID', () => {
      const upper = { ...otherFolder, folder: FOLDER.toUpperCase() };
      for (const [sources, destination] of [[[FOLDER.toUpperCase()], otherFolder], [[FOLDER], upper], [[A, FOLDER.toUpperCase()], upper]] as const) {
        const plan = planCopy({ sources, destination });
        assert.ok(!plan.ok && /into itself/.test(plan.problems.join(' ')), `${sources.join(',')} into ${destination.folder}`);
      }
      assert.match(destinationProblem(otherFolder, [FOLDER.toUpperCase()]) ?? '', /into itself/);
      assert.match(destinationProblem(upper, [FOLDER]) ?? '', /into itself/);
      assert.strictEqual(destinationProblem(otherFolder, [A.toUpperCase()]), undefined);
    });
    it("refuses a project's root folder whatever the case of either ID", () => {
      assert.deepStrictEqual(checkSources([ROOT.toUpperCase()], new Set([ROOT])).roots, [ROOT]);
      assert.deepStrictEqual(checkSources([ROOT], new Set([ROOT.toUpperCase()])).roots, [ROOT]);
    });
    it('refuses an empty selection and a malformed destination', () => {
      assert.ok(!planCopy({ sources: [], destination: otherRoot }).ok);
      assert.ok(!planCopy({ sources: [A], destination: { kind: 'projectRoot', project: 'no-slash' } }).ok);
      assert.ok(!planCopy({ sources: [A], destination: { ...otherFolder, folder: 'xyz' } }).ok);
    });
  });

  describe('words', () => {
    it('sums the copy up for the confirmation', () => {
      assert.strictEqual(confirmationText(12, otherFolder), 'Copy 12 items to rfranklin/dest › results/2026?');
      assert.strictEqual(confirmationText(1, otherRoot, { names: ['a.bam'], newName: 'b.bam' }), 'Copy "a.bam" to rfranklin/dest as "b.bam"?');
      assert.strictEqual(confirmationText(2, otherRoot, { names: ['a.bam', 'b.bam'] }), 'Copy "a.bam" and "b.bam" to rfranklin/dest?');
      assert.strictEqual(confirmationText(3, otherRoot, { names: ['a', 'b', 'c'] }), 'Copy 3 items to rfranklin/dest?');
      assert.strictEqual(confirmationText(2, otherRoot, { names: ['a.bam'] }), 'Copy 2 items to rfranklin/dest?', 'a name missing: the count');
      assert.strictEqual(describeDestination(otherRoot), 'rfranklin/dest');
    });

    it('notes only what applies: folders when there are folders, names when the question could not give them', () => {
      const base = { duplicates: 0, batches: 1, batchSize: 100 };
      assert.deepStrictEqual(confirmationNotes({ ...base, count: 2, folders: 0, names: ['a', 'b'] }), ['A file whose name is taken there gets a numbered name.']);
      assert.deepStrictEqual(confirmationNotes({ ...base, count: 1, folders: 1, names: ['results'] }), ['The folder is copied with everything in it.']);
      const many = confirmationNotes({ ...base, count: 10, folders: 2, duplicates: 1, batches: 2, batchSize: 5, names: 'abcdefghij'.split('') });
      assert.deepStrictEqual(many, [
        'a, b, c, d, e, f, g, h and 2 more.',
        '1 duplicate ID was dropped.',
        'Sent as 2 requests of at most 5 items, each its own job.',
        'Folders are copied with everything in them.',
        'A file whose name is taken there gets a numbered name.',
      ]);
      assert.deepStrictEqual(confirmationNotes({ ...base, count: 3 }), ['A folder is copied with everything in it.', 'A file whose name is taken there gets a numbered name.']);
    });

    it("says what to do first when a project's root folder is given", () => {
      const problems = sourceProblems(checkSources([A], new Set([A])));
      assert.match(problems[0], /^Copy the files and folders inside a project's root folder instead/);
      assert.ok(problems[0].includes(A));
    });
  });
});
