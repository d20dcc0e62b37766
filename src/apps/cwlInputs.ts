// An app's raw CWL (contract §14.2) read as a task needs it: its inputs (the form a task fills), its outputs and what it
// says of itself (its revisions are appRevisions.ts's). CWL v1.0 and sbg:draft-2 (ids written `#reads`), inputs as a
// list or a map, every type form (`File?`, `File[]`, `["null", X]`, `{type: array, items}`, enums, records). No `vscode`.
import * as l10n from '@vscode/l10n';
import type { RawApp } from '../api/apps';

/** A CWL type, read. */
export type CwlType =
  | { kind: 'null' }
  | { kind: 'File' | 'Directory' }
  | { kind: 'int' | 'long' | 'float' | 'double' | 'string' | 'boolean' }
  | { kind: 'enum'; symbols: string[] }
  | { kind: 'array'; items: CwlType }
  | { kind: 'record'; fields: { name: string; type: CwlType }[] }
  | { kind: 'union'; of: CwlType[] }
  /** `Any`, or a type this version cannot read: any value is taken. */
  | { kind: 'any'; name?: string };

export interface AppInput {
  /** Without a leading `#` or a workflow's prefix (`#main/reads` is `reads`): the key of the task's `inputs`. */
  id: string;
  label?: string;
  doc?: string;
  /** The type without `null`: `optional` says whether null is taken. */
  type: CwlType;
  /** `null` is taken (`File?`, `["null", X]`). */
  optional: boolean;
  /** Not optional and without a default: a task cannot run without it. */
  required: boolean;
  default?: unknown;
  /** What the tool does when nothing is set (`sbg:toolDefaultValue`): shown, never sent. */
  toolDefault?: string;
  /** `sbg:fileTypes`, upper case (`FASTQ.GZ`): a hint, the platform takes other files. */
  fileTypes: string[];
  category?: string;
  /** Files the platform takes from beside each file: `.bai` appends, `^.bai` replaces the extension. */
  secondaryFiles: string[];
}

export interface AppOutput {
  id: string;
  label?: string;
  type: CwlType;
  optional: boolean;
  fileTypes: string[];
}

const NUMBERS = ['int', 'long', 'float', 'double'] as const;
const PRIMITIVES = [...NUMBERS, 'string', 'boolean'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** `#main/reads` → `reads`; `reads` stays. */
export function inputKey(id: string): string {
  const bare = id.startsWith('#') ? id.slice(1) : id;
  return bare.slice(bare.lastIndexOf('/') + 1);
}

/** A type expression read; what cannot be read takes any value (the platform says what it refuses). */
export function readType(t: unknown): CwlType {
  if (typeof t === 'string') {
    if (t.endsWith('?')) return { kind: 'union', of: [NULL, readType(t.slice(0, -1))] };
    if (t.endsWith('[]')) return { kind: 'array', items: readType(t.slice(0, -2)) };
    if (t === 'null') return NULL;
    if (t === 'File' || t === 'Directory') return { kind: t };
    if (t === 'stdout' || t === 'stderr') return { kind: 'File' };
    if ((PRIMITIVES as readonly string[]).includes(t)) return { kind: t as (typeof PRIMITIVES)[number] };
    return { kind: 'any', name: t };
  }
  if (Array.isArray(t)) return t.length === 1 ? readType(t[0]) : { kind: 'union', of: t.map(readType) };
  if (isObject(t)) {
    if (t.type === 'array') return { kind: 'array', items: readType(t.items) };
    if (t.type === 'enum' && Array.isArray(t.symbols)) return { kind: 'enum', symbols: t.symbols.map((s) => inputKey(String(s))) };
    if (t.type === 'record') return { kind: 'record', fields: entries(t.fields).map(([name, f]) => ({ name: inputKey(name), type: readType(isObject(f) ? f.type : f) })) };
  }
  return { kind: 'any' };
}

const NULL: CwlType = { kind: 'null' };
const isNull = (t: CwlType): boolean => t.kind === 'null';

/** Whether `null` is taken. */
function takesNull(t: CwlType): boolean {
  return isNull(t) || (t.kind === 'union' && t.of.some(takesNull)) || (t.kind === 'any' && t.name === undefined);
}

/** The type without its `null` members (`File?` → File). */
function withoutNull(t: CwlType): CwlType {
  if (t.kind !== 'union') return t;
  const rest = t.of.filter((m) => !isNull(m)).map(withoutNull);
  return rest.length === 1 ? rest[0] : { kind: 'union', of: rest };
}

/** `[{id, …}]` or `{id: {…} | "<type>"}` as [id, entry] pairs. */
function entries(list: unknown): [string, unknown][] {
  if (Array.isArray(list)) return list.map((e) => [isObject(e) ? (text(e.id) ?? text(e.name) ?? '') : '', e]);
  if (isObject(list)) return Object.entries(list);
  return [];
}

/** `"BAM, SAM"` → `['BAM', 'SAM']`. */
function fileTypes(value: unknown): string[] {
  return typeof value === 'string' ? value.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean) : [];
}

function secondary(entry: Record<string, unknown>): string[] {
  const binding = isObject(entry.inputBinding) ? entry.inputBinding : {};
  const given = entry.secondaryFiles ?? binding.secondaryFiles;
  const list = Array.isArray(given) ? given : given === undefined ? [] : [given];
  // CWL 1.1+ writes `{pattern: ".bai"}`.
  return list.map((s) => (isObject(s) ? s.pattern : s)).filter((s): s is string => typeof s === 'string');
}

/** The inputs of an app, in the order its CWL lists them. */
export function appInputs(raw: RawApp): AppInput[] {
  return entries(raw.inputs)
    .filter(([id]) => inputKey(id) !== '')
    .map(([id, e]) => {
      const entry = isObject(e) ? e : { type: e };
      const read = readType(entry.type);
      const optional = takesNull(read);
      const hasDefault = entry.default !== undefined && entry.default !== null;
      return {
        id: inputKey(id),
        label: text(entry.label),
        doc: text(entry.doc) ?? text(entry.description),
        type: withoutNull(read),
        optional,
        required: !optional && !hasDefault,
        ...(hasDefault ? { default: entry.default } : {}),
        toolDefault: text(entry['sbg:toolDefaultValue']),
        fileTypes: fileTypes(entry['sbg:fileTypes']),
        category: text(entry['sbg:category']),
        secondaryFiles: secondary(entry),
      };
    });
}

/** The outputs of an app. */
export function appOutputs(raw: RawApp): AppOutput[] {
  return entries(raw.outputs)
    .filter(([id]) => inputKey(id) !== '')
    .map(([id, e]) => {
      const entry = isObject(e) ? e : { type: e };
      const read = readType(entry.type);
      return { id: inputKey(id), label: text(entry.label), type: withoutNull(read), optional: takesNull(read), fileTypes: fileTypes(entry['sbg:fileTypes']) };
    });
}

/** What an app's CWL says of it in a line or two: its label, toolkit, class. */
export interface AppSummary {
  label?: string;
  doc?: string;
  toolkit?: string;
  className?: string;
  cwlVersion?: string;
  /** The steps of a workflow. */
  steps: number;
}

export function appSummary(raw: RawApp): AppSummary {
  const toolkit = [text(raw['sbg:toolkit']), text(raw['sbg:toolkitVersion'])].filter(Boolean).join(' ') || undefined;
  return {
    label: text(raw.label),
    doc: text(raw.doc) ?? text(raw.description),
    toolkit,
    className: text(raw.class),
    cwlVersion: text(raw.cwlVersion),
    steps: raw.class === 'Workflow' ? entries(raw.steps).length : 0,
  };
}

/** A type as written in CWL: `File[]`, `int`, `enum`, `record`. */
export function typeName(t: CwlType): string {
  switch (t.kind) {
    case 'array':
      return `${typeName(t.items)}[]`;
    case 'union':
      return t.of.map(typeName).join(' | ');
    case 'any':
      return t.name ?? 'Any';
    default:
      return t.kind;
  }
}

/** The file kind an input takes, itself or in a list: a file input offers files, a folder input folders. */
export function fileKind(t: CwlType): { kind: 'File' | 'Directory'; many: boolean } | undefined {
  if (t.kind === 'File' || t.kind === 'Directory') return { kind: t.kind, many: false };
  if (t.kind === 'array' && (t.items.kind === 'File' || t.items.kind === 'Directory')) return { kind: t.items.kind, many: true };
  return undefined;
}

/** Whether a file's name fits an input's file types (no types: any file). */
export function fitsFileTypes(name: string, types: readonly string[]): boolean {
  if (!types.length) return true;
  const upper = name.toUpperCase();
  return types.some((t) => upper.endsWith(`.${t}`));
}

/** "required", "optional", "default 8": how an input must be given, in words. */
export function needWords(input: AppInput): string {
  if (input.required) return l10n.t({ message: 'required', comment: ['An app input that a task must set'] });
  if (input.default !== undefined) return l10n.t('optional, default {0}', JSON.stringify(input.default));
  return optionalWords();
}

/** "optional": an input a task may leave out. */
export const optionalWords = (): string => l10n.t({ message: 'optional', comment: ['An app input that a task may leave out'] });
