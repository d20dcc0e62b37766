// Push App Revision…'s decisions (src/apps/pushPlan.ts) and where the platform's words land (src/apps/cwlProblems.ts).
import * as assert from 'assert';
import type { RawApp } from '../../../src/api/apps';
import { holdsSent, withoutServerFields } from '../../../src/apps/appDocument';
import { pulledAppId } from '../../../src/apps/appRevisions';
import { formatOf, renderCwl } from '../../../src/apps/cwlText';
import { placeProblems } from '../../../src/apps/cwlProblems';
import { planPush, pushedSinceWords } from '../../../src/apps/pushPlan';

const APP = 'rfranklin/my-project/align-and-sort';
const TOOL: RawApp = { class: 'CommandLineTool', cwlVersion: 'v1.0', inputs: [{ id: 'threads', type: 'int', default: 8 }], outputs: [] };
const served = (doc: RawApp, revision: number, by = 'rfranklin'): RawApp => ({
  ...doc,
  'sbg:id': `${APP}/${revision}`,
  'sbg:revision': revision,
  'sbg:latestRevision': revision,
  'sbg:modifiedBy': by,
  'sbg:modifiedOn': 1_700_000_000,
  'sbg:revisionNotes': 'Threads 8 → 16.',
  'sbg:content_hash': 'f00',
});

describe('Push App Revision…: the plan', () => {
  it('a file pulled from the latest, a default changed: the next revision, the diff of just that default, nobody pushed since', () => {
    const pulled = served(TOOL, 2);
    const edited = { ...pulled, inputs: [{ id: 'threads', type: 'int', default: 16 }] };
    const plan = planPush(APP, edited, served(TOOL, 2), 'align-and-sort.cwl');
    assert.strictEqual(plan.kind, 'app.revision');
    assert.deepStrictEqual(plan.payload, { app: APP, revision: 3, source: 'align-and-sort.cwl', cwl: { ...TOOL, 'sbg:revisionNotes': 'Pushed from align-and-sort.cwl.', inputs: [{ id: 'threads', type: 'int', default: 16 }] } });
    assert.deepStrictEqual(plan.before, TOOL);
    assert.deepStrictEqual(plan.after, { ...TOOL, inputs: [{ id: 'threads', type: 'int', default: 16 }] });
    assert.deepStrictEqual([plan.pulledFrom, plan.latest, plan.pushedSince, plan.unchanged], [2, { revision: 2, by: 'rfranklin', at: 1_700_000_000_000 }, false, false]);
  });

  it('the new revision\'s notes: the pulled ones are the latest\'s, replaced by where it came from; notes written in the file are sent; neither is in the diff', () => {
    const pulled = { ...served(TOOL, 2), inputs: [] };
    assert.strictEqual(planPush(APP, pulled, served(TOOL, 2), 'a.cwl').payload.cwl['sbg:revisionNotes'], 'Pushed from a.cwl.');
    assert.strictEqual(planPush(APP, TOOL, served(TOOL, 2), 'a.cwl').payload.cwl['sbg:revisionNotes'], 'Pushed from a.cwl.');
    const written = planPush(APP, { ...pulled, 'sbg:revisionNotes': 'No inputs.' }, served(TOOL, 2), 'a.cwl');
    assert.strictEqual(written.payload.cwl['sbg:revisionNotes'], 'No inputs.');
    assert.deepStrictEqual([written.before?.['sbg:revisionNotes'], written.after['sbg:revisionNotes']], [undefined, undefined]);
    assert.strictEqual(planPush(APP, { ...served(TOOL, 2), 'sbg:revisionNotes': 'only the notes' }, served(TOOL, 2), 'a.cwl').unchanged, true);
  });

  it('someone pushed since the file was pulled: said, with who and which revisions', () => {
    const plan = planPush(APP, served(TOOL, 2), served(TOOL, 4, 'mwilkins'), 'tools/align.cwl');
    assert.deepStrictEqual([plan.pushedSince, plan.payload.revision], [true, 5]);
    assert.strictEqual(pushedSinceWords(plan, '2 hours ago'), 'mwilkins pushed revision 4 of rfranklin/my-project/align-and-sort 2 hours ago; tools/align.cwl was pulled from revision 2. Compare before you push over it.');
  });

  it('a file that says no revision (written here) is not "pushed since"; the same document as the latest is unchanged', () => {
    const plan = planPush(APP, { ...TOOL, inputs: [] }, served(TOOL, 4), 'a.cwl');
    assert.deepStrictEqual([plan.pushedSince, plan.pulledFrom, plan.unchanged], [false, undefined, false]);
    assert.strictEqual(planPush(APP, served(TOOL, 4), served(TOOL, 4), 'a.cwl').unchanged, true);
  });

  it('no such app: a new app, revision 0, nothing on the left of the diff', () => {
    const plan = planPush('rfranklin/my-project/new-tool', TOOL, undefined, 'new-tool.cwl');
    assert.deepStrictEqual([plan.kind, plan.payload.revision, plan.before, plan.latest], ['app.install', 0, undefined, undefined]);
  });
});

describe('an app\'s CWL as a file', () => {
  it('names the app it was pulled from; sends none of the fields the platform sets', () => {
    assert.strictEqual(pulledAppId(served(TOOL, 3)), APP);
    assert.strictEqual(pulledAppId(TOOL), undefined);
    assert.deepStrictEqual(Object.keys(withoutServerFields(served(TOOL, 3))), ['class', 'cwlVersion', 'inputs', 'outputs', 'sbg:revisionNotes']);
  });

  it('is written as JSON or YAML, and read back the same; its format from its name or text', async () => {
    const doc = served(TOOL, 3);
    assert.strictEqual(await renderCwl(doc, 'json'), `${JSON.stringify(doc, null, 2)}\n`);
    const yaml = await renderCwl(doc, 'yaml');
    assert.match(yaml, /^class: CommandLineTool\ncwlVersion: v1\.0\ninputs:\n {2}- id: threads\n/);
    assert.match(yaml, /\nsbg:revision: 3\n/);
    assert.deepStrictEqual([formatOf('a.cwl', yaml), formatOf('a.cwl', '{"class": 1}'), formatOf('a.json', '')], ['yaml', 'json', 'json']);
  });

  it('a revision holds what was sent when every field sent is there alike (fields the platform adds aside)', () => {
    assert.strictEqual(holdsSent(served({ ...TOOL, 'sbg:appVersion': ['v1.0'] }, 3), TOOL), true);
    assert.strictEqual(holdsSent(served(TOOL, 3), { ...TOOL, inputs: [{ id: 'threads', type: 'int', default: 9 }] }), false);
    assert.strictEqual(holdsSent(served(TOOL, 3), { ...TOOL, inputs: [] }), false);
  });
});

describe('the platform\'s words on the lines they are about', () => {
  const yaml = 'class: CommandLineTool\ncwlVersion: v1.0\ninputs:\n  - id: reads\n    type: Flie\n  - id: threads\n    type: int\noutputs: []\n';
  const json = '{\n  "class": "Workflow",\n  "inputs": [\n    { "id": "#reads", "type": "File" },\n    { "id": "sample" }\n  ]\n}\n';

  it('on the id a message names (YAML and JSON), else on a key it names, else left as words', () => {
    const { placed, unplaced } = placeProblems(yaml, ["Input 'reads': unknown type 'Flie'.", "No 'outputs': the app makes nothing the platform keeps.", 'Something else went wrong.', "Step 'gone' has no 'run'."]);
    assert.deepStrictEqual(placed, [
      { message: "Input 'reads': unknown type 'Flie'.", line: 3, start: 8, end: 13 },
      { message: "No 'outputs': the app makes nothing the platform keeps.", line: 7, start: 0, end: 7 },
    ]);
    assert.deepStrictEqual(unplaced, ['Something else went wrong.', "Step 'gone' has no 'run'."]);
    const inJson = placeProblems(json, ["Input 'sample' has no 'type'.", "Input 'reads': unknown type 'x'."]);
    assert.deepStrictEqual(inJson.placed.map((p) => [p.line, json.split('\n')[p.line].slice(p.start, p.end)]), [[4, 'sample'], [3, 'reads']]);
  });

  it('an id that only begins with the name is not it', () => {
    assert.deepStrictEqual(placeProblems('inputs:\n  - id: reads_2\n  - id: reads\n', ["Input 'reads' has no 'type'."]).placed.map((p) => p.line), [2]);
  });
});
