// A task document checked against its app's inputs and the project's files, as the platform would check the task
// (contract §11.1, §11.2), so that what it would refuse shows as you type: a required input missing, a value of the
// wrong type, an unknown input, a file that does not exist or is in another project. And the platform's own
// validation errors put back on the lines of the inputs they name. Pure: the files come from a lookup. No `vscode`.
import * as l10n from '@vscode/l10n';
import { isFileId } from '../api/ids';
import { fileKind, typeName, type AppInput, type CwlType } from '../apps/cwlInputs';
import type { DocumentProblem, ParsedTaskDocument, Span } from './taskDocument';

/** What is known of a file or folder the document names. */
export interface FileFacts {
  id: string;
  name: string;
  type: 'file' | 'folder';
  project?: string;
}

/**
 * A file's facts: its record; `missing` when the platform says there is no such file the caller can see; undefined
 * while not known (not read yet, or the read failed): nothing is said of it then.
 */
export type FileLookup = (id: string) => FileFacts | 'missing' | undefined;

const START: Span = { start: 0, end: 0 };

/** Every file and folder ID the document's inputs name (the lookups to make), each once. */
export function namedFileIds(parsed: ParsedTaskDocument, inputs: readonly AppInput[]): string[] {
  const ids = new Set<string>();
  for (const input of inputs) {
    if (!fileKind(input.type)) continue;
    const value = parsed.document.inputs[input.id];
    for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string' && isFileId(v)) ids.add(v.toLowerCase());
  }
  return [...ids];
}

/**
 * The problems of a document against its app's inputs (undefined: the app could not be read, so only the document's
 * own problems are known) and the files the lookup knows.
 */
export function validateTaskDocument(parsed: ParsedTaskDocument, inputs: readonly AppInput[] | undefined, files: FileLookup = () => undefined): DocumentProblem[] {
  const problems: DocumentProblem[] = [...parsed.problems];
  const doc = parsed.document;
  if (doc.app === undefined) problems.push({ span: START, message: l10n.t('Name the app: "app: owner/project/app/revision".'), severity: 'error' });
  if (doc.project === undefined) problems.push({ span: parsed.fields.app?.value ?? START, message: l10n.t('Name the project the task runs in: "project: owner/project".'), severity: 'error' });
  if (!inputs) return problems;
  const byId = new Map(inputs.map((i) => [i.id, i]));
  const batched = doc.batch?.input;
  const inputsAt = parsed.fields.inputs?.key ?? parsed.fields.app?.value ?? START;
  for (const input of inputs) {
    const value = doc.inputs[input.id];
    if (input.required && isUnset(value)) {
      const entry = parsed.inputs.find((i) => i.id === input.id);
      problems.push({ span: entry?.key ?? inputsAt, message: l10n.t('The required input "{0}" ({1}) is not set.', input.id, describeInput(input)), severity: 'error', input: input.id });
    }
  }
  for (const entry of parsed.inputs) {
    const input = byId.get(entry.id);
    if (!input) {
      problems.push({ span: entry.key, message: l10n.t('"{0}" is not an input of {1}: the platform ignores it.', entry.id, doc.app ?? ''), severity: 'warning', input: entry.id });
      continue;
    }
    const value = doc.inputs[entry.id];
    if (isUnset(value)) continue;
    // A batch input takes a list of what the input takes (one child task per file, or per group).
    const type = entry.id === batched && input.type.kind !== 'array' ? ({ kind: 'array', items: input.type } as CwlType) : input.type;
    for (const p of valueProblems(value, type, files, doc.project)) {
      const span = p.item !== undefined ? (entry.items[p.item] ?? entry.value) : entry.value;
      problems.push({ span, message: p.message, severity: p.severity ?? 'error', input: entry.id });
    }
  }
  if (doc.batch) {
    const at = parsed.fields.batch?.value ?? START;
    const input = byId.get(doc.batch.input);
    if (!input) problems.push({ span: at, message: l10n.t('The batch input "{0}" is not an input of the app.', doc.batch.input), severity: 'error' });
    else if (!fileKind(input.type)) problems.push({ span: at, message: l10n.t('The batch input "{0}" takes no files: batch by a File or File[] input.', doc.batch.input), severity: 'error' });
    else if (doc.batch.by !== 'file' && input.type.kind !== 'array') problems.push({ span: at, message: l10n.t('Batching by metadata needs an input that takes a list of files; "{0}" takes one.', doc.batch.input), severity: 'error' });
  }
  return problems;
}

const isUnset = (value: unknown): boolean => value === undefined || value === null || (Array.isArray(value) && value.length === 0);

/** "File[], Aligned reads": an input's type and label. */
export function describeInput(input: AppInput): string {
  return input.label ? `${typeName(input.type)}, ${input.label}` : typeName(input.type);
}

interface ValueProblem {
  message: string;
  item?: number;
  severity?: 'error' | 'warning';
}

/** The problems of a value for a type (none when it fits). An int is taken where a float is expected. */
function valueProblems(value: unknown, type: CwlType, files: FileLookup, project: string | undefined, item?: number): ValueProblem[] {
  const wrong = (): ValueProblem[] => [{ message: l10n.t('Expected {0}, not {1}.', typeWords(type), shown(value)), item }];
  switch (type.kind) {
    case 'any':
      return [];
    case 'null':
      return value === null ? [] : wrong();
    case 'int':
    case 'long':
      return typeof value === 'number' && Number.isInteger(value) ? [] : wrong();
    case 'float':
    case 'double':
      return typeof value === 'number' ? [] : wrong();
    case 'string':
      // A number or true written where text is expected is read by the platform as it was typed: quote it to be sure.
      return typeof value === 'string' ? [] : typeof value === 'number' || typeof value === 'boolean' ? [{ message: l10n.t('{0} reads as a {1}, not text: put it in quotes ("{0}").', String(value), typeof value), item }] : wrong();
    case 'boolean':
      return typeof value === 'boolean' ? [] : wrong();
    case 'enum':
      return typeof value === 'string' && type.symbols.includes(value) ? [] : [{ message: l10n.t('{0} is not one of {1}.', shown(value), type.symbols.join(', ')), item }];
    case 'File':
    case 'Directory':
      return fileProblems(value, type.kind, files, project, item);
    case 'array':
      if (!Array.isArray(value)) return wrong();
      return value.flatMap((v, i) => valueProblems(v, type.items, files, project, i));
    case 'record': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return wrong();
      const fields = value as Record<string, unknown>;
      return type.fields.flatMap((f) => (fields[f.name] === undefined ? [{ message: l10n.t('The field "{0}" is missing.', f.name), item }] : valueProblems(fields[f.name], f.type, files, project, item)));
    }
    case 'union': {
      const each = type.of.map((m) => valueProblems(value, m, files, project, item));
      return each.some((p) => p.length === 0) ? [] : (each.find((p) => p.length) ?? wrong());
    }
  }
}

function fileProblems(value: unknown, kind: 'File' | 'Directory', files: FileLookup, project: string | undefined, item: number | undefined): ValueProblem[] {
  if (typeof value !== 'string' || !isFileId(value)) {
    return [{ message: kind === 'File' ? l10n.t('Give a file ID (Ctrl+Space lists the project\'s files, or drag files here from Projects & Files).') : l10n.t('Give a folder ID (Ctrl+Space lists the project\'s folders).'), item }];
  }
  const facts = files(value.toLowerCase());
  if (facts === undefined) return [];
  if (facts === 'missing') return [{ message: l10n.t('No file or folder {0} is on the platform (or you cannot see it).', value), item }];
  if (kind === 'File' && facts.type === 'folder') return [{ message: l10n.t('"{0}" is a folder; this input takes a file.', facts.name), item }];
  if (kind === 'Directory' && facts.type !== 'folder') return [{ message: l10n.t('"{0}" is a file; this input takes a folder.', facts.name), item }];
  if (project !== undefined && facts.project !== undefined && facts.project !== project) {
    return [{ message: l10n.t('"{0}" is in {1}, not in the task\'s project {2}: copy it there first.', facts.name, facts.project, project), item }];
  }
  return [];
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** What a type takes, in words: "a whole number", "a list of files", "one of strict, lenient". */
export function typeWords(type: CwlType): string {
  switch (type.kind) {
    case 'int':
    case 'long':
      return l10n.t('a whole number');
    case 'float':
    case 'double':
      return l10n.t('a number');
    case 'string':
      return l10n.t('text');
    case 'boolean':
      return l10n.t('true or false');
    case 'File':
      return l10n.t('a file ID');
    case 'Directory':
      return l10n.t('a folder ID');
    case 'enum':
      return l10n.t('one of {0}', type.symbols.join(', '));
    case 'array':
      return l10n.t('a list of {0}', typeName(type.items));
    case 'record':
      return l10n.t('an object with {0}', type.fields.map((f) => f.name).join(', '));
    case 'union':
      return type.of.map(typeWords).join(l10n.t({ message: ' or ', comment: ['Between two kinds of value: "a number or text"'] }));
    default:
      return typeName(type);
  }
}

/** A validation error or warning of the platform: `{type, input, message}` (contract §11.2), or anything else. */
export function platformProblems(parsed: ParsedTaskDocument, items: readonly unknown[], severity: 'error' | 'warning'): DocumentProblem[] {
  return items.map((item) => {
    const record = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : undefined;
    const input = typeof record?.input === 'string' ? record.input.replace(/^#/, '') : undefined;
    const message = typeof record?.message === 'string' ? record.message : typeof item === 'string' ? item : JSON.stringify(item);
    const entry = input !== undefined ? parsed.inputs.find((i) => i.id === input) : undefined;
    const span = entry ? { start: entry.key.start, end: entry.value.end } : (parsed.fields.inputs?.key ?? parsed.fields.app?.value ?? START);
    return { span, message: l10n.t('The platform: {0}', message), severity, ...(input !== undefined ? { input } : {}) };
  });
}
