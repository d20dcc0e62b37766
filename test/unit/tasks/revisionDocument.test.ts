// Run this revision (tasks/revisionDocument.ts): the task document last changed for an app, moved to a new revision.
import * as assert from 'assert';
import * as yaml from 'yaml';
import { revisionOfDocumentPath } from '../../../src/apps/appRevisions';
import type { TextEdit } from '../../../src/tasks/draftLine';
import { lastDocumentFor, revisionEdits } from '../../../src/tasks/revisionDocument';
import { readTaskDocument } from '../../../src/tasks/taskDocument';

const read = (text: string) => readTaskDocument(yaml, text);
const applied = (text: string, edits: readonly TextEdit[]) => [...edits].sort((a, b) => b.start - a.start).reduce((t, e) => t.slice(0, e.start) + e.text + t.slice(e.end), text);

const doc = (app: string, extra = '') => `# a task\napp: ${app}\nproject: rfranklin/my-project\n${extra}inputs:\n  mode: strict\n`;

describe('Run this revision: the task document of the app', () => {
  it('is the one last changed among those that run the app, at any revision', () => {
    const candidates = [
      { key: 'old', parsed: read(doc('rfranklin/my-project/variant-filter/1')), modified: 100 },
      { key: 'new', parsed: read(doc('rfranklin/my-project/variant-filter/2')), modified: 300 },
      { key: 'other app', parsed: read(doc('rfranklin/my-project/align/0')), modified: 900 },
      { key: 'no app', parsed: read('inputs: {}\n'), modified: 1000 },
    ];
    assert.strictEqual(lastDocumentFor(candidates, 'rfranklin/my-project/variant-filter/4')?.key, 'new');
    assert.strictEqual(lastDocumentFor(candidates, 'rfranklin/my-project/variant-filte/4'), undefined);
  });

  it('moves to the revision: its app line changed, its draft line taken out, the rest as it was', () => {
    const text = doc('rfranklin/my-project/variant-filter/2  # the one we test', 'draft: 1f0e3c7a-0000-4000-8000-000000000001\n');
    const moved = applied(text, revisionEdits(text, read(text), 'rfranklin/my-project/variant-filter/5'));
    assert.strictEqual(moved, '# a task\napp: rfranklin/my-project/variant-filter/5  # the one we test\nproject: rfranklin/my-project\ninputs:\n  mode: strict\n');
  });

  it('takes out a draft line that ends the text', () => {
    const text = 'app: a/b/c/1\ndraft: 1f0e3c7a-0000-4000-8000-000000000001';
    assert.strictEqual(applied(text, revisionEdits(text, read(text), 'a/b/c/2')), 'app: a/b/c/2\n');
  });

  it('reads the app and revision a revision\'s read-only document shows', () => {
    assert.strictEqual(revisionOfDocumentPath('/rfranklin/my-project/variant-filter/3.cwl'), 'rfranklin/my-project/variant-filter/3');
    assert.strictEqual(revisionOfDocumentPath('/shown/4/variant-filter-3.cwl'), undefined);
  });
});
