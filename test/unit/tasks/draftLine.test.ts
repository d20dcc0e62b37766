// The `draft:` line of a task document (tasks/draftLine.ts): it names the task the document made while that is a
// draft, and is taken out once the task runs, so that Run Task on the same document again makes a new task.
import * as assert from 'assert';
import * as yaml from 'yaml';
import { draftLineEdit } from '../../../src/tasks/draftLine';
import type { TextEdit } from '../../../src/tasks/draftLine';
import { readTaskDocument } from '../../../src/tasks/taskDocument';

const read = (text: string) => readTaskDocument(yaml, text);
const applied = (text: string, edit: TextEdit | undefined) => (edit ? text.slice(0, edit.start) + edit.text + text.slice(edit.end) : text);
const after = (text: string, task: { id: string; status?: string }) => applied(text, draftLineEdit(text, read(text), task));

const ID = '1f0e3c7a-0000-4000-8000-000000000001';
const doc = (extra = '') => `# a task\napp: a/b/c/1\nproject: rfranklin/my-project  # mine\n${extra}name: QC\ninputs:\n  mode: strict\n`;

describe('the draft line of a task document', () => {
  it('is not written for a task that runs: the document stays a description of a run, to run again', () => {
    assert.strictEqual(after(doc(), { id: ID, status: 'QUEUED' }), doc());
    assert.strictEqual(after(doc(), { id: ID, status: 'RUNNING' }), doc());
  });

  it('names a task made as a draft (Save as Draft, or a run the platform refused), below the project', () => {
    assert.strictEqual(after(doc(), { id: ID, status: 'DRAFT' }), doc(`draft: ${ID}\n`));
    assert.strictEqual(after('app: a/b/c/1\nproject: p/q', { id: ID, status: 'DRAFT' }), `app: a/b/c/1\nproject: p/q\ndraft: ${ID}`);
    assert.strictEqual(after('app: a/b/c/1\n', { id: ID, status: 'DRAFT' }), `draft: ${ID}\napp: a/b/c/1\n`);
  });

  it('is left as it is while the draft it names is saved again', () => {
    assert.strictEqual(draftLineEdit(doc(`draft: ${ID}\n`), read(doc(`draft: ${ID}\n`)), { id: ID, status: 'DRAFT' }), undefined);
  });

  it('is taken out once the draft it named runs', () => {
    assert.strictEqual(after(doc(`draft: ${ID}\n`), { id: ID, status: 'QUEUED' }), doc());
  });
});
