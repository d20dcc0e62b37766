// Run for Each Row… (issue 39): a sample sheet (CSV or TSV, a header row naming the app's inputs) and a task document
// as the template make one task per row. Here, without `vscode`: which column is which input, the file names of the
// cells (looked up by ./sheetFiles.ts) made IDs, each row's document checked by the one checker (./taskValidation.ts),
// the preview, and how a run came out in words.
import * as l10n from '@vscode/l10n';
import { isFileId } from '../api/ids';
import { fileKind, type AppInput, type CwlType } from '../apps/cwlInputs';
import type { TableRow } from '../util/delimited';
import { andMore, count, failedCountWords, notSentWords, taskCount, unansweredWords } from '../util/words';
import type { ParsedTaskDocument, TaskDocument } from './taskDocument';
import { taskRequest } from './taskRequest';
import type { CreateTaskPayload } from './taskWrites';
import { validateTaskDocument, type FileFacts } from './taskValidation';

/** The column that names each task (when no input has that id). */
export const NAME_COLUMN = 'name';
/** Between the files (or values) of one cell, for an input that takes a list. */
export const LIST_SEPARATOR = ';';

/** Which column is which: an input's, the task's name, or none (left out, said in the preview). */
export interface SheetColumns {
  inputs: { column: number; input: AppInput }[];
  name?: number;
  ignored: string[];
  /** What makes the sheet unusable as a whole. */
  problems: string[];
}

const header = (cell: string): string => cell.trim().replace(/^#/, '');

export function sheetColumns(names: readonly string[], inputs: readonly AppInput[]): SheetColumns {
  const out: SheetColumns = { inputs: [], ignored: [], problems: [] };
  const seen = new Set<string>();
  names.forEach((raw, column) => {
    const name = header(raw);
    if (name === '') return;
    if (seen.has(name)) return void out.problems.push(l10n.t('The column "{0}" is given twice.', name));
    seen.add(name);
    const input = inputs.find((i) => i.id === name);
    if (input) out.inputs.push({ column, input });
    else if (name === NAME_COLUMN) out.name = column;
    else out.ignored.push(name);
  });
  const oneCell = names.length === 1 ? /[;\t|]/.exec(names[0]) : null;
  if (!out.inputs.length && oneCell) {
    out.problems.push(l10n.t('The first row is one cell, its names separated by "{0}": save the sheet with commas (CSV) or tabs (.tsv).', oneCell[0] === '\t' ? 'tab' : oneCell[0]));
  } else if (!out.inputs.length) {
    out.problems.push(l10n.t('No column names an input of the app: the first row names the inputs ({0}).', inputs.map((i) => i.id).join(', ')));
  }
  return out;
}

/** The files found by name in the project: every record of each name (more than one: the name is not enough). */
export type FoundFiles = ReadonlyMap<string, readonly FileFacts[]>;

/** The files read by the IDs the sheet gives (lower case): each one's facts, or "missing". */
export type KnownIds = ReadonlyMap<string, FileFacts | 'missing'>;

/** The cells of file inputs, each once: the names (what ./sheetFiles.ts looks up) and the IDs (what it reads). */
export function sheetFileCells(rows: readonly TableRow[], columns: SheetColumns): { names: string[]; ids: string[] } {
  const names = new Set<string>();
  const ids = new Set<string>();
  for (const row of rows) {
    for (const { column, input } of columns.inputs) {
      const kind = fileKind(input.type);
      if (!kind) continue;
      for (const item of cellItems(row.cells[column] ?? '', kind.many)) {
        if (isFileId(item)) ids.add(item.toLowerCase());
        else names.add(item);
      }
    }
  }
  return { names: [...names], ids: [...ids] };
}

const cellItems = (cell: string, many: boolean): string[] => (many ? cell.split(LIST_SEPARATOR).map((s) => s.trim()).filter(Boolean) : cell.trim() ? [cell.trim()] : []);

/** One row's task: its document (the template's, the row's cells over it), and what keeps it from being made. */
export interface SheetTask {
  /** The sheet's line the row is on. */
  line: number;
  document: TaskDocument;
  /** File names by ID, for the preview. */
  names: Map<string, string>;
  problems: string[];
}

export interface SheetPlan {
  tasks: SheetTask[];
  ignored: string[];
  problems: string[];
}

export interface SheetInput {
  rows: readonly TableRow[];
  template: TaskDocument;
  inputs: readonly AppInput[];
  found: FoundFiles;
  /** The files of the cells that are IDs (none read: the checker takes an ID as it is). */
  known?: KnownIds;
}

/** A task per row after the first (the header); each row checked as its document would be. */
export function planSheet({ rows, template, inputs, found, known = new Map() }: SheetInput): SheetPlan {
  const [head, ...body] = rows;
  if (!head) return { tasks: [], ignored: [], problems: [l10n.t('The sheet is empty: its first row names the inputs, each row after it makes a task.')] };
  const columns = sheetColumns(head.cells, inputs);
  if (!body.length) columns.problems.push(l10n.t('The sheet has a header row and no rows: nothing to make.'));
  if (columns.problems.length) return { tasks: [], ignored: columns.ignored, problems: columns.problems };
  const facts = new Map<string, FileFacts | 'missing'>(known);
  for (const records of found.values()) for (const f of records) facts.set(f.id.toLowerCase(), f);
  // A template that names no app is refused before (the document's own problems).
  const base = template.name ?? template.app?.split('/')[2] ?? '';
  const tasks = body.map((row) => {
    const problems: string[] = [];
    const names = new Map<string, string>();
    const values: Record<string, unknown> = {};
    if (row.cells.length > head.cells.length) problems.push(l10n.t('The row has {0} cells, the header {1}.', row.cells.length, head.cells.length));
    for (const { column, input } of columns.inputs) {
      const cell = row.cells[column] ?? '';
      if (cell.trim() === '') continue;
      const kind = fileKind(input.type);
      if (!kind) {
        values[input.id] = cellValue(cell.trim(), input.type);
        continue;
      }
      const ids = cellItems(cell, kind.many).map((item) => {
        if (isFileId(item)) return item;
        const records = found.get(item) ?? [];
        if (records.length === 1) {
          names.set(records[0].id, item);
          return records[0].id;
        }
        problems.push(
          records.length
            ? l10n.t('{0} files are named "{1}" in {2}: write the ID of the one you mean ({3}).', records.length, item, template.project ?? '', records.map((r) => r.id).join(', '))
            : l10n.t('No file named "{0}" is in {1} (a name is looked for at the project\'s top level, and everywhere in it where the platform can search).', item, template.project ?? ''),
        );
        return undefined;
      });
      values[input.id] = kind.many ? ids : ids[0];
    }
    const name = columns.name !== undefined && row.cells[columns.name]?.trim() ? row.cells[columns.name].trim() : `${base} · ${row.cells.find((c) => c.trim()) ?? row.line}`;
    const document: TaskDocument = { ...template, name, inputs: { ...template.inputs, ...values } };
    delete document.draft;
    // A name not found is said once, as such; the checker says the rest (a required input left empty, a value of the wrong type, …).
    const resolved = Object.values(values).every((v) => v !== undefined && !(Array.isArray(v) && v.includes(undefined)));
    if (resolved) problems.push(...validateTaskDocument(asParsed(document), inputs, (id) => facts.get(id)).filter((p) => p.severity === 'error').map((p) => p.message));
    return { line: row.line, document, names, problems };
  });
  return { tasks, ignored: columns.ignored, problems: [] };
}

/** A document made here, as the checker reads one (no text behind it: every place is the start). */
function asParsed(document: TaskDocument): ParsedTaskDocument {
  const at = { start: 0, end: 0 };
  return { document, fields: {}, inputs: Object.keys(document.inputs).map((id) => ({ id, key: at, value: at, items: [] })), problems: [] };
}

/** A cell as the input's type reads it: numbers, true/false, lists split at ";"; text that fits no type stays text (the checker says so). */
export function cellValue(cell: string, type: CwlType): unknown {
  switch (type.kind) {
    case 'int':
    case 'long':
      return /^[-+]?\d+$/.test(cell) ? Number(cell) : cell;
    case 'float':
    case 'double':
      return cell !== '' && Number.isFinite(Number(cell)) ? Number(cell) : cell;
    case 'boolean':
      return /^(true|yes)$/i.test(cell) ? true : /^(false|no)$/i.test(cell) ? false : cell;
    case 'array':
      return cellItems(cell, true).map((item) => cellValue(item, type.items));
    case 'union': {
      const read = type.of.map((t) => cellValue(cell, t)).find((v) => typeof v !== 'string');
      return read ?? cell;
    }
    default:
      return cell;
  }
}

/** The tasks a plan makes: the rows without problems. */
export const readyTasks = (plan: SheetPlan): SheetTask[] => plan.tasks.filter((t) => !t.problems.length);

/** What Run for Each Row… sends once confirmed: a create of each ready row's task, run as soon as it is made. */
export function sheetPayloads(plan: SheetPlan, inputs: readonly AppInput[]): CreateTaskPayload[] {
  return readyTasks(plan).map((t) => ({ task: taskRequest(t.document, inputs), run: true }));
}

/** "Make 12 tasks from samples.csv?" and what the confirmation says beside it. */
export function sheetConfirmation(plan: SheetPlan, sheet: string, template: TaskDocument): { message: string; detail: string } {
  const ready = readyTasks(plan).length;
  const left = plan.tasks.length - ready;
  const message = l10n.t('Make {0} from {1}?', taskCount(ready), sheet);
  const lines = [l10n.t('App {0} in {1}; each task is run as soon as it is made.', template.app ?? '', template.project ?? '')];
  if (left) lines.push(left === 1 ? l10n.t('1 row has problems and is left out (see the preview).') : l10n.t('{0} rows have problems and are left out (see the preview).', count(left)));
  if (plan.ignored.length) lines.push(ignoredWords(plan.ignored));
  return { message, detail: lines.join('\n') };
}

const ignoredWords = (columns: readonly string[]): string => l10n.t('Columns that name no input, left out: {0}.', columns.join(', '));

/** The preview: every row, the task it makes (its name and inputs, file names beside their IDs) or why it cannot. */
export function sheetPreview(plan: SheetPlan, sheet: string, template: TaskDocument): string {
  const ready = readyTasks(plan).length;
  const lines = [`# ${l10n.t('Run for Each Row: {0}', sheet)}`, '', l10n.t('App {0} in {1}: {2} to make, {3} with problems.', template.app ?? '', template.project ?? '', taskCount(ready), count(plan.tasks.length - ready)), ''];
  for (const p of plan.problems) lines.push(`- ${p}`);
  if (plan.ignored.length) lines.push(ignoredWords(plan.ignored), '');
  for (const task of plan.tasks) {
    lines.push(`## ${l10n.t('Row {0}: {1}', task.line, task.document.name ?? '')}`, '');
    for (const p of task.problems) lines.push(`- ⚠ ${p}`);
    for (const [id, value] of Object.entries(task.document.inputs)) {
      const shown = (v: unknown) => (typeof v === 'string' && task.names.has(v) ? `${task.names.get(v)} (${v})` : JSON.stringify(v));
      lines.push(`- ${id}: ${Array.isArray(value) ? value.map(shown).join(', ') : shown(value)}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** How a run of a sheet came out, once it stopped waiting. */
export interface SheetOutcome {
  made: number;
  /** Refused by the platform, or waiting for the person. */
  failed: readonly string[];
  /** Sent and not answered yet (followed in the Data Jobs view). */
  pending: number;
  /** Not sent: taken back by a Cancel. */
  notSent: number;
  /** Rows left out for their problems. */
  leftOut: number;
}

/** "Run for Each Row (samples.csv): 10 tasks made, 1 failed, 1 not sent." and, when some failed, why. */
export function sheetSummary(outcome: SheetOutcome, sheet: string): { warning: string } | { done: string } {
  const parts = [l10n.t('{0} made', taskCount(outcome.made))];
  if (outcome.failed.length) parts.push(failedCountWords(outcome.failed.length));
  if (outcome.pending) parts.push(unansweredWords(outcome.pending));
  if (outcome.notSent) parts.push(notSentWords(count(outcome.notSent)));
  if (outcome.leftOut) parts.push(outcome.leftOut === 1 ? l10n.t('1 row left out for its problems') : l10n.t('{0} rows left out for their problems', count(outcome.leftOut)));
  const words = l10n.t('Run for Each Row ({0}): {1}.', sheet, parts.join(', '));
  if (parts.length === 1) return { done: words };
  const why = outcome.failed.slice(0, 5).join('; ') + (outcome.failed.length > 5 ? ` ${andMore(outcome.failed.length - 5)}` : '');
  return { warning: why ? `${words} ${why}` : words };
}
