// The bench's parts of issue 39 (scripts/bench/sheetScenario.ts, completionScenario.ts): the sheet they make is one
// Run for Each Row… takes whole, and their figures fail when a task is doubled or missing, a 429 comes, the time
// passes the budget's floor + 10 %, the official client did not run, or a list from what is held asks the platform.
import * as assert from 'assert';
import { appInputs } from '../../../src/apps/cwlInputs';
import { planSheet, readyTasks, sheetColumns, sheetFileCells } from '../../../src/tasks/sampleSheet';
import { readDelimited } from '../../../src/util/delimited';
import { completionFigures, type CompletionResult } from '../../../scripts/bench/completionScenario';
import { passes } from '../../../scripts/bench/figures';
import { sampleSheet, sheetFigures, SHEET_ROWS, type OfficialSheetResult, type SheetResult } from '../../../scripts/bench/sheetScenario';
import type { WorkRun } from '../../../scripts/bench/peer/works';

const ours = (over: Partial<SheetResult> = {}): SheetResult => ({
  before: { requests: 21, nameLookups: 20 },
  creates: 1000,
  listings: 57,
  lost: 10,
  foundByLookup: 10,
  requests: 1057,
  status429: 0,
  totalMs: 309_814,
  realMs: 517_000,
  heapMb: 29.5,
  tasks: { made: 1000, doubled: 0, missing: 0 },
  holds: [302_000],
  left: 0,
  ...over,
});
const run: WorkRun = { ms: 17_681, requests: 1000, bytes: 0, memoryMb: NaN, rssMb: 0, storageRequests: 0, storageBytes: 0, cpuS: NaN, result: { made: 1000, refused: {} }, startedAt: NaN };
const official: OfficialSheetResult = { run, status429: 0, tasks: { made: 1000, doubled: 0, missing: 0 } };
const failing = (figures: ReturnType<typeof sheetFigures>) => figures.filter((f) => !passes(f)).map((f) => f.name.split(' (')[0].split(',')[0]);

describe('bench: 1,000 tasks from a sample sheet', () => {
  it('makes a sheet whose every row Run for Each Row… plans ready, its names found at the top level', () => {
    const inputs = appInputs({ class: 'CommandLineTool', inputs: [{ id: 'input_fastq', type: 'File', 'sbg:fileTypes': 'FASTQ, FASTQ.GZ' }, { id: 'threads', type: 'int', default: 8 }] });
    const rows = readDelimited(sampleSheet(), ',');
    const names = sheetFileCells(rows.slice(1), sheetColumns(rows[0].cells, inputs)).names;
    const found = new Map(names.map((name, i) => [name, [{ id: i.toString(16).padStart(24, '0'), name, type: 'file' as const, project: 'rfranklin/my-project' }]]));
    const plan = planSheet({ rows, template: { app: 'rfranklin/my-project/fastqc/12', project: 'rfranklin/my-project', inputs: {} }, inputs, found });
    assert.strictEqual(names.length, SHEET_ROWS);
    assert.strictEqual(readyTasks(plan).length, SHEET_ROWS);
    assert.strictEqual(new Set(plan.tasks.map((t) => t.document.name)).size, SHEET_ROWS, 'a name of its own each: the tasks are counted by name');
  });

  it('passes within the budget\'s floor + 10 %, every task once, no 429, the official client beside it', () => {
    const figures = sheetFigures(ours(), official);
    assert.deepStrictEqual(failing(figures), []);
    const time = figures.find((f) => f.unit === 'ms')!;
    assert.deepStrictEqual([time.ideal, time.limit, time.peer?.value], [300_000, 330_000, 17_681], 'the floor: 1,010 requests need two windows of 1,000');
    assert.strictEqual(figures.find((f) => f.name.startsWith('requests from'))!.ideal, 1010, 'a create a row and a page a lost answer');
  });

  it('fails a doubled or missing task, a write left, a 429, a time past the floor + 10 %, and an official client that did not run', () => {
    assert.deepStrictEqual(failing(sheetFigures(ours({ tasks: { made: 999, doubled: 1, missing: 0 } }), official)), ['tasks made exactly once']);
    assert.deepStrictEqual(failing(sheetFigures(ours({ left: 1 }), official)), ['tasks made exactly once']);
    assert.deepStrictEqual(failing(sheetFigures(ours({ status429: 1 }), official)), ['429 answers']);
    assert.deepStrictEqual(failing(sheetFigures(ours({ totalMs: 331_000 }), official)), ['time from the confirmation to the last task made']);
    assert.deepStrictEqual(failing(sheetFigures(ours(), { ...official, tasks: { made: 998, doubled: 2, missing: 0 } })), ['tasks made exactly once']);
    assert.strictEqual(failing(sheetFigures(ours(), { status429: 0, tasks: { made: 0, doubled: 0, missing: 1000 }, missing: 'python3 cannot be run' })).length, 4, 'each figure with the official client beside it');
  });

  it('keeps its figures\' names whatever a run measured (bench-results.json and the README merge by name)', () => {
    const names = (r: SheetResult) => sheetFigures(r, official).map((f) => f.name);
    assert.deepStrictEqual(names(ours({ listings: 3, lost: 2, holds: [] })), names(ours()));
  });
});

describe('bench: completion of a file input, 20,000 files', () => {
  const result = (over: Partial<CompletionResult> = {}): CompletionResult => ({
    first: { requests: 1, ms: 90, suggestions: 48 },
    next: { requests: 0, ms: 0.02, suggestions: 48 },
    nextAllHeld: { requests: 0, ms: 0.23, suggestions: 20_004 },
    typing: { requests: 1, ms: 65 },
    ...over,
  });

  it('passes one page request for the first list and the next within 50 ms without one; fails otherwise, under the same names', () => {
    assert.deepStrictEqual(completionFigures(result()).filter((f) => !passes(f)), []);
    const worse = completionFigures(result({ first: { requests: 2, ms: 90, suggestions: 48 }, next: { requests: 1, ms: 3, suggestions: 48 }, nextAllHeld: { requests: 0, ms: 51, suggestions: 20_004 }, typing: { requests: 2, ms: 65 } }));
    assert.strictEqual(worse.filter((f) => !passes(f)).length, 4);
    assert.deepStrictEqual(worse.map((f) => f.name), completionFigures(result()).map((f) => f.name));
  });
});
