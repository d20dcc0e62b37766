// Run for Each Row… (tasks/sampleSheet.ts, tasks/sheetFiles.ts, util/delimited.ts): a sample sheet read, its columns
// matched to the app's inputs, its file names found in the project and made IDs, each row checked, the preview and
// the summary.
import * as assert from 'assert';
import { ApiError } from '../../../src/api/errors';
import type { FileRecord, Page, SearchPage } from '../../../src/api/types';
import { appInputs } from '../../../src/apps/cwlInputs';
import { cellValue, planSheet, readyTasks, sheetColumns, sheetFileCells, sheetPayloads, sheetPreview, sheetSummary, type FoundFiles, type KnownIds } from '../../../src/tasks/sampleSheet';
import type { FileFacts } from '../../../src/tasks/taskValidation';
import { findSheetFiles, nameChunks, readSheetIds } from '../../../src/tasks/sheetFiles';
import type { TaskDocument } from '../../../src/tasks/taskDocument';
import { delimiterOf, readDelimited } from '../../../src/util/delimited';

const R1 = '64f1a2b3c4d5e6f708192a3b';
const R2 = '64f1a2b3c4d5e6f708192a3c';
const REF = '64f1a2b3c4d5e6f708192a3d';
const OTHER = '64f1a2b3c4d5e6f708192a3e';
const PROJECT = 'rfranklin/rna-seq';

const inputs = appInputs({
  inputs: [
    { id: 'reads', type: 'File[]' },
    { id: 'reference', type: 'File' },
    { id: 'threads', type: 'int', default: 8 },
    { id: 'ratio', type: 'float?' },
    { id: 'mode', type: { type: 'enum', name: 'm', symbols: ['strict', 'lenient'] } },
    { id: 'keep', type: 'boolean?' },
  ],
});

const template: TaskDocument = { app: 'rfranklin/rna-seq/bwa-mem/3', project: PROJECT, name: 'BWA', draft: '1f0e3c7a-0000-4000-8000-000000000001', inputs: { reference: REF, mode: 'strict' } };

const file = (id: string, name: string, project = PROJECT) => ({ id, name, type: 'file' as const, project });
const found = (entries: [string, ReturnType<typeof file>[]][]): FoundFiles => new Map(entries);

describe('Sample sheet: reading CSV and TSV', () => {
  it('reads quoted CSV cells with commas, doubled quotes and line breaks, and leaves blank lines out', () => {
    const rows = readDelimited('\uFEFFreads,name\r\n"a,b.fq","say ""hi""\nthere"\r\n\r\nc.fq , d\n', ',');
    assert.deepStrictEqual(rows, [
      { line: 1, cells: ['reads', 'name'] },
      { line: 2, cells: ['a,b.fq', 'say "hi"\nthere'] },
      { line: 5, cells: ['c.fq', 'd'] },
    ]);
  });

  it('reads TSV by tabs, quotes taken as they are', () => {
    assert.deepStrictEqual(readDelimited('reads\tthreads\n"x, y"\t4', '\t'), [
      { line: 1, cells: ['reads', 'threads'] },
      { line: 2, cells: ['"x, y"', '4'] },
    ]);
  });

  it('refuses a quote never closed, naming its line, instead of reading the rest of the sheet as one cell', () => {
    assert.throws(() => readDelimited('sample,reads\ns1,"a.bam\ns2,b.bam\ns3,c.bam\n', ','), /^Error: The quote opened on line 2 is never closed/);
  });

  it('takes the delimiter from the file name, else from the first line', () => {
    assert.strictEqual(delimiterOf('s.tsv', 'a,b'), '\t');
    assert.strictEqual(delimiterOf('s.csv', 'a\tb'), ',');
    assert.strictEqual(delimiterOf('sheet', 'a\tb\n'), '\t');
    assert.strictEqual(delimiterOf('sheet', 'a,b\n'), ',');
  });
});

describe('Sample sheet: columns and values', () => {
  it('matches columns to inputs ("#reads" too), the name column, and leaves out the others', () => {
    const columns = sheetColumns(['#reads', 'sample', 'name', 'threads'], inputs);
    assert.deepStrictEqual(columns.inputs.map((c) => [c.column, c.input.id]), [[0, 'reads'], [3, 'threads']]);
    assert.strictEqual(columns.name, 2);
    assert.deepStrictEqual(columns.ignored, ['sample']);
    assert.deepStrictEqual(columns.problems, []);
  });

  it('refuses a sheet whose columns name no input, or one column twice', () => {
    assert.match(sheetColumns(['sample', 'notes'], inputs).problems.join(), /No column names an input of the app.*reads, reference/);
    assert.match(sheetColumns(['reads', 'reads'], inputs).problems.join(), /"reads" is given twice/);
    // A spreadsheet that saved its CSV with ";" (a comma is the decimal sign there): the header is one cell.
    assert.match(sheetColumns(['reads;threads'], inputs).problems.join(), /^The first row is one cell, its names separated by ";": save the sheet with commas/);
  });

  it('reads a cell as the input\'s type: numbers, booleans, lists split at ";", text otherwise', () => {
    assert.strictEqual(cellValue('4', { kind: 'int' }), 4);
    assert.strictEqual(cellValue('4.5', { kind: 'int' }), '4.5');
    assert.strictEqual(cellValue('0.25', { kind: 'float' }), 0.25);
    assert.strictEqual(cellValue('Yes', { kind: 'boolean' }), true);
    assert.strictEqual(cellValue('no', { kind: 'boolean' }), false);
    assert.strictEqual(cellValue('007', { kind: 'string' }), '007');
    assert.deepStrictEqual(cellValue('1; 2', { kind: 'array', items: { kind: 'int' } }), [1, 2]);
    assert.strictEqual(cellValue('3', { kind: 'union', of: [{ kind: 'string' }, { kind: 'int' }] }), 3);
  });

  it('lists the file cells to look up, each once: the names, and the IDs (to be read)', () => {
    const rows = readDelimited(`reads,reference,threads\ns1.fq;s2.fq,${REF},4\ns1.fq,ref.fa,2\n`, ',');
    assert.deepStrictEqual(sheetFileCells(rows.slice(1), sheetColumns(rows[0].cells, inputs)), { names: ['s1.fq', 's2.fq', 'ref.fa'], ids: [REF.toLowerCase()] });
  });
});

describe('Sample sheet: a task per row', () => {
  const sheet = `reads,threads,keep,name\ns1_R1.fq;s1_R2.fq,4,yes,\n${R1},2,,second\n`;

  it('makes each row the template with its cells over it, names made IDs, the draft line dropped', () => {
    const plan = planSheet({ rows: readDelimited(sheet, ','), template, inputs, found: found([['s1_R1.fq', [file(R1, 's1_R1.fq')]], ['s1_R2.fq', [file(R2, 's1_R2.fq')]]]) });
    assert.deepStrictEqual(plan.problems, []);
    assert.deepStrictEqual(plan.tasks.map((t) => t.problems), [[], []]);
    assert.deepStrictEqual(plan.tasks[0].document, { app: template.app, project: PROJECT, name: 'BWA · s1_R1.fq;s1_R2.fq', inputs: { reference: REF, mode: 'strict', reads: [R1, R2], threads: 4, keep: true } });
    assert.deepStrictEqual(plan.tasks[1].document.inputs, { reference: REF, mode: 'strict', reads: [R1], threads: 2 });
    assert.strictEqual(plan.tasks[1].document.name, 'second');
    assert.deepStrictEqual(plan.tasks.map((t) => t.line), [2, 3]);
    assert.strictEqual(readyTasks(plan).length, 2);
  });

  it('sends, once confirmed, a create of each ready row\'s task, run at once, its files as the API takes them; a row with problems is left out', () => {
    const rows = readDelimited(`reads,threads,name\ns1_R1.fq,4,first\nmissing.fq,2,second\n${R2},8,third\n`, ',');
    const plan = planSheet({ rows, template, inputs, found: found([['s1_R1.fq', [file(R1, 's1_R1.fq')]]]) });
    assert.deepStrictEqual(sheetPayloads(plan, inputs), [
      { task: { project: PROJECT, app: template.app, name: 'first', inputs: { reference: { class: 'File', path: REF }, mode: 'strict', reads: [{ class: 'File', path: R1 }], threads: 4 } }, run: true },
      { task: { project: PROJECT, app: template.app, name: 'third', inputs: { reference: { class: 'File', path: REF }, mode: 'strict', reads: [{ class: 'File', path: R2 }], threads: 8 } }, run: true },
    ]);
  });

  it('says a name found nowhere, and one found twice with the IDs to choose from', () => {
    const plan = planSheet({ rows: readDelimited('reads\nmissing.fq\ntwice.fq\n', ','), template, inputs, found: found([['twice.fq', [file(R1, 'twice.fq'), file(R2, 'twice.fq')]]]) });
    assert.match(plan.tasks[0].problems.join(), /No file named "missing.fq" is in rfranklin\/rna-seq/);
    assert.match(plan.tasks[1].problems.join(), new RegExp(`2 files are named "twice.fq" in rfranklin/rna-seq: write the ID of the one you mean \\(${R1}, ${R2}\\)`));
    assert.strictEqual(plan.tasks[1].problems.length, 1);
    assert.strictEqual(readyTasks(plan).length, 0);
  });

  it('checks each row as its document would be: a wrong value, a required input left empty, a file of another project', () => {
    const rows = readDelimited(`reads,threads,mode,reference\ns.fq,many,strict,\ns.fq,2,fast,\ns.fq,2,strict,o.fa\n`, ',');
    const plan = planSheet({ rows, template: { ...template, inputs: {} }, inputs, found: found([['s.fq', [file(R1, 's.fq')]], ['o.fa', [file(OTHER, 'o.fa', 'someone/else')]]]) });
    assert.match(plan.tasks[0].problems.join(' | '), /Expected a whole number, not "many"/);
    assert.match(plan.tasks[0].problems.join(' | '), /The required input "reference"/);
    assert.match(plan.tasks[1].problems.join(' | '), /"fast" is not one of strict, lenient/);
    assert.deepStrictEqual(plan.tasks[2].problems, ['"o.fa" is in someone/else, not in the task\'s project rfranklin/rna-seq: copy it there first.']);
  });

  it('checks the files a row gives by ID as those given by name: another project\'s, one the platform does not know', () => {
    const rows = readDelimited(`reads\n${OTHER}\n${R2}\n${R1}\n`, ',');
    const known: KnownIds = new Map<string, FileFacts | 'missing'>([[OTHER.toLowerCase(), file(OTHER, 'o.fq', 'someone/else')], [R2.toLowerCase(), 'missing' as const], [R1.toLowerCase(), file(R1, 's.fq')]]);
    const plan = planSheet({ rows, template, inputs, found: found([]), known });
    assert.deepStrictEqual(plan.tasks.map((t) => t.problems), [
      ['"o.fq" is in someone/else, not in the task\'s project rfranklin/rna-seq: copy it there first.'],
      [`No file or folder ${R2} is on the platform (or you cannot see it).`],
      [],
    ]);
  });

  it('refuses an empty sheet, and one with a header only', () => {
    assert.match(planSheet({ rows: [], template, inputs, found: found([]) }).problems.join(), /The sheet is empty/);
    assert.match(planSheet({ rows: readDelimited('reads\n', ','), template, inputs, found: found([]) }).problems.join(), /a header row and no rows/);
  });

  it('says a row with more cells than the header', () => {
    const plan = planSheet({ rows: readDelimited(`reads\n${R1},extra\n`, ','), template, inputs, found: found([]) });
    assert.match(plan.tasks[0].problems.join(), /The row has 2 cells, the header 1/);
  });

  it('previews every row: the task, its inputs with file names beside IDs, the problems', () => {
    const plan = planSheet({ rows: readDelimited(`reads,sample\ns1.fq,a\nnone.fq,b\n`, ','), template, inputs, found: found([['s1.fq', [file(R1, 's1.fq')]]]) });
    const text = sheetPreview(plan, 'samples.csv', template);
    assert.match(text, /1 task to make, 1 with problems/);
    assert.match(text, /Columns that name no input, left out: sample/);
    assert.match(text, new RegExp(`## Row 2: BWA · s1.fq\\n\\n- reference: "${REF}"\\n- mode: "strict"\\n- reads: s1.fq \\(${R1}\\)`));
    assert.match(text, /## Row 3: BWA · none.fq\n\n- ⚠ No file named "none.fq"/);
  });
});

describe('Sample sheet: the summary', () => {
  it('counts made, failed, not answered yet, not sent and left out', () => {
    assert.deepStrictEqual(sheetSummary({ made: 12, failed: [], pending: 0, notSent: 0, leftOut: 0 }, 's.csv'), { done: 'Run for Each Row (s.csv): 12 tasks made.' });
    assert.deepStrictEqual(sheetSummary({ made: 9, failed: ['Row 4: refused'], pending: 1, notSent: 2, leftOut: 1 }, 's.csv'), {
      warning: 'Run for Each Row (s.csv): 9 tasks made, 1 failed, 1 sent and not answered yet (followed in the Data Jobs view), 2 not sent, 1 row left out for its problems. Row 4: refused',
    });
  });
});

describe('Sample sheet: finding the files by name', () => {
  const client = (root: FileRecord[], searched: FileRecord[] | 'absent') => {
    const calls: string[] = [];
    return {
      calls,
      files: {
        list: async (_l: unknown, page: { name?: string | readonly string[] }): Promise<Page<FileRecord>> => {
          const names = [page.name ?? []].flat();
          calls.push(`list ${names.length}`);
          return { items: root.filter((f) => names.includes(f.name)), total: undefined, next: undefined };
        },
      },
      search: {
        page: async (query: string): Promise<SearchPage> => {
          calls.push(`search ${query}`);
          if (searched === 'absent') throw new ApiError({ kind: 'http', status: 404, message: 'no search' });
          return { results: searched.filter((f) => query.includes(`"${f.name}"`)), contToken: undefined, count: undefined };
        },
      },
    };
  };
  const rec = (id: string, name: string): FileRecord => ({ id, name, type: 'file', project: PROJECT }) as FileRecord;

  it('asks the top level 50 names a request, then searches each name not found there', async () => {
    const names = Array.from({ length: 120 }, (_, i) => `s${i}.fq`);
    const c = client([rec(R1, 's0.fq')], [rec(R2, 's1.fq'), rec(OTHER, 's1.fq')]);
    const paced: number[] = [];
    const got = await findSheetFiles(c, PROJECT, names.slice(0, 2), { pace: async () => void paced.push(1) });
    assert.deepStrictEqual([...got.entries()].map(([n, f]) => [n, f.map((x) => x.id)]), [['s0.fq', [R1]], ['s1.fq', [R2, OTHER]]]);
    assert.deepStrictEqual(c.calls, ['list 2', 'search IN "/Projects/rfranklin/rna-seq" WHERE name = "s1.fq" RECURSIVE']);
    assert.strictEqual(paced.length, 2);
    assert.deepStrictEqual(nameChunks(names).map((c) => c.length), [50, 50, 20]);
  });

  it('stops searching where the platform has no search: what the top level holds is what is found', async () => {
    const c = client([], 'absent');
    const got = await findSheetFiles(c, PROJECT, ['a.fq', 'b.fq']);
    assert.strictEqual(got.size, 0);
    assert.deepStrictEqual(c.calls, ['list 2', 'search IN "/Projects/rfranklin/rna-seq" WHERE name = "a.fq" RECURSIVE']);
  });

  it('reads the files given by ID 100 a call: each one\'s facts, "missing" for an ID the answer has an error for', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(24, '0'));
    const calls: number[] = [];
    const bulkFiles = {
      get: async (asked: readonly string[]) => {
        calls.push(asked.length);
        return asked.map((id) => (id === ids[1] ? { error: { status: 404, code: 5002, message: 'not found' } } : { resource: { ...rec(id, `${id}.fq`), project: id === ids[2] ? 'someone/else' : PROJECT } }));
      },
    };
    const known = await readSheetIds({ bulkFiles }, ids, { pace: async () => undefined });
    assert.deepStrictEqual(calls, [100, 1]);
    assert.strictEqual(known.get(ids[1]), 'missing');
    assert.deepStrictEqual(known.get(ids[2]), { id: ids[2], name: `${ids[2]}.fq`, type: 'file', project: 'someone/else' });
    assert.strictEqual(known.size, 101);
  });
});
