// What a task document offers where the cursor is: the place read from the lines above it (a field, an input's id,
// an input's value or a list item of it, an execution or batch setting), the suggestions for that place from the
// app's inputs and the project's files, and the hover of an input or a file ID. No `vscode`.
import * as l10n from '@vscode/l10n';
import type { FileRecord } from '../api/types';
import { fileKind, fitsFileTypes, needWords, typeName, type AppInput, type CwlType } from '../apps/cwlInputs';
import { BATCH_KEYS, EXECUTION_KEYS, TOP_KEYS, type ParsedTaskDocument } from './taskDocument';
import { typeWords } from './taskValidation';

/** Where the cursor is, as far as suggestions go; `typed`: the word already typed there (replaced by a suggestion). */
export type CursorPlace =
  | { at: 'field'; typed: string }
  | { at: 'fieldValue'; field: string; typed: string }
  | { at: 'inputId'; typed: string }
  | { at: 'inputValue'; input: string; item: boolean; typed: string }
  | { at: 'setting'; block: 'execution' | 'batch'; typed: string }
  | { at: 'batchInput'; typed: string }
  | { at: 'nowhere' };

/** The place of `offset` in the text, read from its line and the block it is in. */
export function cursorPlace(text: string, offset: number): CursorPlace {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  const above = text.slice(0, lineStart).split('\n').reverse();
  /** The nearest line above with less indentation than `indent` that names a key. */
  const parent = (indent: number): string | undefined => {
    for (const line of above) {
      const m = /^(\s*)([A-Za-z_][\w.-]*)\s*:/.exec(line);
      if (m && m[1].length < indent) return m[2];
    }
    return undefined;
  };
  let m = /^([A-Za-z_]*)$/.exec(before);
  if (m) return { at: 'field', typed: m[1] };
  m = /^(app|project)\s*:\s*(\S*)$/.exec(before);
  if (m) return { at: 'fieldValue', field: m[1], typed: m[2] };
  m = /^interruptible\s*:\s*(\S*)$/.exec(before);
  if (m) return { at: 'fieldValue', field: 'interruptible', typed: m[1] };
  m = /^(\s+)([\w.-]*)$/.exec(before);
  if (m) {
    const block = parent(m[1].length);
    if (block === 'inputs') return { at: 'inputId', typed: m[2] };
    if (block === 'execution' || block === 'batch') return { at: 'setting', block, typed: m[2] };
    return { at: 'nowhere' };
  }
  m = /^(\s+)([\w.-]+)\s*:\s*(\S*)$/.exec(before);
  if (m) {
    const block = parent(m[1].length);
    if (block === 'inputs') return { at: 'inputValue', input: m[2], item: false, typed: m[3] };
    if (block === 'batch' && m[2] === 'input') return { at: 'batchInput', typed: m[3] };
    return { at: 'nowhere' };
  }
  m = /^(\s+)-\s*(\S*)$/.exec(before);
  if (m) {
    const input = parent(m[1].length + 1);
    // The list's key must itself be an input: a line under `inputs:`.
    return input !== undefined && parentOfKey(above, input) === 'inputs' ? { at: 'inputValue', input, item: true, typed: m[2] } : { at: 'nowhere' };
  }
  return { at: 'nowhere' };
}

function parentOfKey(above: string[], key: string): string | undefined {
  const index = above.findIndex((line) => new RegExp(`^\\s*${key.replace(/[.]/g, '\\.')}\\s*:`).test(line));
  if (index < 0) return undefined;
  const indent = /^\s*/.exec(above[index])![0].length;
  for (const line of above.slice(index + 1)) {
    const m = /^(\s*)([A-Za-z_][\w.-]*)\s*:/.exec(line);
    if (m && m[1].length < indent) return m[2];
  }
  return undefined;
}

export type SuggestionKind = 'field' | 'input' | 'value' | 'file' | 'folder';

export interface Suggestion {
  label: string;
  /** What is written. */
  insert: string;
  /** What typing is matched against (a file's name, while its ID is written). */
  filter?: string;
  detail?: string;
  kind: SuggestionKind;
}

/** What the suggestions are made from: the app's inputs (undefined: not read), the project's files held. */
export interface SuggestionFacts {
  parsed: ParsedTaskDocument;
  inputs: readonly AppInput[] | undefined;
  files: readonly FileRecord[];
}

/** A project's files as held for completion (./taskDocumentFacts.ts): `more` reads one more page when some are left. */
export interface ProjectFiles {
  projectFiles(project: string, more: boolean): Promise<{ files: FileRecord[]; complete: boolean }>;
}

/**
 * Completion's model part: the suggestions at a place of a document, the project's files read only for an input that
 * takes files (the first page the first time; `again`, the person typed on in a list not complete: one page more;
 * else what is held), and whether more are left on the platform.
 */
export async function completionAt(files: ProjectFiles, place: CursorPlace, parsed: ParsedTaskDocument, inputs: readonly AppInput[] | undefined, again: boolean): Promise<{ suggestions: Suggestion[]; complete: boolean }> {
  const input = place.at === 'inputValue' ? inputs?.find((i) => i.id === place.input) : undefined;
  const project = parsed.document.project;
  const held = input && fileKind(input.type) && project ? await files.projectFiles(project, again) : { files: [], complete: true };
  return { suggestions: suggestionsAt(place, { parsed, inputs, files: held.files }), complete: held.complete };
}

/** The suggestions for a place. File suggestions write the ID, the name as a comment beside it. */
export function suggestionsAt(place: CursorPlace, facts: SuggestionFacts): Suggestion[] {
  const { parsed, inputs } = facts;
  switch (place.at) {
    case 'field':
      return TOP_KEYS.filter((k) => !parsed.fields[k]).map((k) => ({ label: k, insert: k === 'inputs' || k === 'execution' || k === 'batch' ? `${k}:\n  ` : `${k}: `, kind: 'field' }));
    case 'fieldValue':
      return place.field === 'interruptible' ? booleans() : [];
    case 'setting':
      return (place.block === 'execution' ? EXECUTION_KEYS : BATCH_KEYS).map((k) => ({ label: k, insert: `${k}: `, kind: 'field' }));
    case 'batchInput':
      return (inputs ?? []).filter((i) => fileKind(i.type)).map((i) => ({ label: i.id, insert: i.id, detail: typeName(i.type), kind: 'input' }));
    case 'inputId': {
      const given = new Set(parsed.inputs.map((i) => i.id));
      return (inputs ?? [])
        .filter((i) => !given.has(i.id))
        .map((i) => ({ label: i.id, insert: fileKind(i.type)?.many ? `${i.id}:\n    - ` : `${i.id}: `, detail: `${typeName(i.type)} · ${needWords(i)}${i.label ? ` · ${i.label}` : ''}`, kind: 'input' }));
    }
    case 'inputValue': {
      const input = inputs?.find((i) => i.id === place.input);
      return input ? valueSuggestions(input, place.item || fileKind(input.type)?.many !== true, facts.files) : [];
    }
    default:
      return [];
  }
}

const booleans = (): Suggestion[] => ['true', 'false'].map((b) => ({ label: b, insert: b, kind: 'value' }));

function valueSuggestions(input: AppInput, single: boolean, files: readonly FileRecord[]): Suggestion[] {
  const files_ = fileKind(input.type);
  if (files_) return single ? fileSuggestions(files, files_.kind, input.fileTypes) : [];
  return scalarSuggestions(input.type);
}

/** The suggestions made so far from a list of files held, by the input's kind and file types. */
const madeFrom = new WeakMap<readonly FileRecord[], Map<string, { count: number; wanted: Suggestion[]; fitting: Suggestion[] }>>();

/**
 * The files an input of this kind takes, narrowed by its file types unless nothing held fits them (the platform takes
 * other files). Each file's suggestion is made once: a project's files held only grow, a page appended at a time
 * (./taskDocumentFacts.ts), so the next list is what was made and the files read since (a project of 20,000 files).
 */
function fileSuggestions(files: readonly FileRecord[], kind: 'File' | 'Directory', fileTypes: readonly string[]): Suggestion[] {
  let byInput = madeFrom.get(files);
  if (!byInput) madeFrom.set(files, (byInput = new Map()));
  const key = `${kind}:${fileTypes.join(',')}`;
  let made = byInput.get(key);
  if (!made || made.count > files.length) byInput.set(key, (made = { count: 0, wanted: [], fitting: [] }));
  for (let i = made.count; i < files.length; i++) {
    const f = files[i];
    if ((kind === 'Directory') !== (f.type === 'folder')) continue;
    const name = f.name;
    const suggestion: Suggestion = { label: name, insert: `${f.id}  # ${name.replace(/[\r\n]+/g, ' ')}`, filter: name, detail: f.id, kind: kind === 'Directory' ? 'folder' : 'file' };
    made.wanted.push(suggestion);
    if (kind === 'File' && fitsFileTypes(name, fileTypes)) made.fitting.push(suggestion);
  }
  made.count = files.length;
  return (made.fitting.length ? made.fitting : made.wanted).slice();
}

function scalarSuggestions(type: CwlType): Suggestion[] {
  if (type.kind === 'boolean') return booleans();
  if (type.kind === 'enum') return type.symbols.map((s) => ({ label: s, insert: s, kind: 'value' }));
  if (type.kind === 'union') return type.of.flatMap(scalarSuggestions);
  return [];
}

/** The hover of an input's key (its label, type, need, default, description, file types), in Markdown. */
export function inputHover(input: AppInput): string {
  const lines = [`**${input.label ?? input.id}** \`${input.id}\``, '', `${typeName(input.type)} — ${typeWords(input.type)} · ${needWords(input)}`];
  if (input.toolDefault) lines.push('', l10n.t('The tool\'s own default: {0}', input.toolDefault));
  if (input.fileTypes.length) lines.push('', l10n.t('File types: {0}', input.fileTypes.join(', ')));
  if (input.secondaryFiles.length) lines.push('', l10n.t('Files taken from beside each: {0}', input.secondaryFiles.join(', ')));
  if (input.doc) lines.push('', input.doc);
  return lines.join('\n');
}

/** What the cursor is over: an input's key, or one of its values (a file ID among them). */
export function hoverTarget(parsed: ParsedTaskDocument, offset: number): { input: string; value?: unknown } | undefined {
  const inside = (s: { start: number; end: number }) => offset >= s.start && offset <= s.end;
  for (const entry of parsed.inputs) {
    if (inside(entry.key)) return { input: entry.id };
    const value = parsed.document.inputs[entry.id];
    const item = entry.items.findIndex(inside);
    if (item >= 0 && Array.isArray(value)) return { input: entry.id, value: value[item] };
    if (inside(entry.value)) return { input: entry.id, value };
  }
  return undefined;
}

/** A file dropped onto the document: its ID, and its name to write beside it. */
export interface DroppedFile {
  id: string;
  name: string;
}

/**
 * Where files dropped on a line go, and the text: into the input of that line — a list of files gains them, one a
 * line, below it; a single file input takes the first as its value (if it has none yet); an input still commented out
 * is taken in with them. Undefined: the line names no input that takes files.
 */
export function dropText(text: string, offset: number, files: readonly DroppedFile[], inputs: readonly AppInput[] | undefined): { at: number; end: number; text: string } | undefined {
  const lineEnd = text.indexOf('\n', offset) < 0 ? text.length : text.indexOf('\n', offset);
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const line = text.slice(lineStart, lineEnd);
  const entry = (f: DroppedFile) => `${f.id}${f.name ? `  # ${f.name.replace(/[\r\n]+/g, ' ')}` : ''}`;
  // An input New Task… wrote commented out (`  # reads:  # File[] · required`): the line taken in, the files its value.
  const commented = /^(\s+)#\s*([\w.-]+):(\s+#.*)?$/.exec(line);
  const offered = commented ? inputs?.find((i) => i.id === commented[2]) : undefined;
  const offeredKind = offered ? fileKind(offered.type) : undefined;
  if (commented && offeredKind) {
    const [, indent, id, hint = ''] = commented;
    const value = offeredKind.many ? `${hint}${files.map((f) => `\n${indent}  - ${entry(f)}`).join('')}` : ` ${entry(files[0])}`;
    return { at: lineStart, end: lineEnd, text: `${indent}${id}:${value}` };
  }
  const valueAt = /^(\s+)([\w.-]+)\s*:\s*$/.exec(line.replace(/\s+#.*$/, ''));
  const itemAt = /^(\s+)-\s/.exec(line);
  const place = cursorPlace(text, valueAt ? lineStart + valueAt[0].length : itemAt ? lineStart + itemAt[0].length : lineEnd);
  if (place.at !== 'inputValue') return undefined;
  const input = inputs?.find((i) => i.id === place.input);
  const kind = input ? fileKind(input.type) : undefined;
  if (!input || !kind) return undefined;
  if (kind.many || place.item) {
    const indent = itemAt ? itemAt[1] : `${valueAt?.[1] ?? '  '}  `;
    // Below the line, and below the list's items that follow it.
    let at = lineEnd;
    for (const next of text.slice(lineEnd + 1).split('\n')) {
      if (!next.startsWith(`${indent}-`)) break;
      at += next.length + 1;
    }
    return { at, end: at, text: files.map((f) => `\n${indent}- ${entry(f)}`).join('') };
  }
  if (!valueAt) return undefined;
  // After the colon, in place of the blanks there.
  const colon = lineStart + line.indexOf(':') + 1;
  return { at: colon, end: lineStart + line.replace(/\s+#.*$/, '').length, text: ` ${entry(files[0])}` };
}
