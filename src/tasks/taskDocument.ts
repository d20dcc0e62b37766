// The task document: an ordinary YAML file (`<name>.sbtask.yaml`) that describes one task — the app with its
// revision, the project, the name, the inputs, batch and execution settings — read with the place of every key and
// value (for diagnostics, hovers, completion and drops), and written back (renderTaskDocument), file names as
// comments. Its checks against the app and the project's files are taskValidation.ts's. No `vscode`.
//
//   app: rfranklin/rna-seq/bwa-mem/3          # required; always with its revision
//   project: rfranklin/rna-seq                # required
//   name: BWA-MEM on sample_01                # optional
//   description: first pass                   # optional
//   draft: 1f0e3c7a-…                         # a draft's document: Save Draft changes that draft
//   inputs:                                   # keys: the app's input ids
//     reads:                                  # File[]: a list of file IDs, each name a comment
//       - 64f1a2b3c4d5e6f708192a3b  # sample_01_R1.fastq.gz
//     threads: 8
//   batch: { input: reads, by: file }         # or by: { criteria: [metadata.sample_id] }
//   execution: { instance_type: c5.2xlarge;ebs-gp2;1024, max_parallel_instances: 2, use_memoization: false, use_elastic_disk: false }
//   interruptible: true
import * as l10n from '@vscode/l10n';
import type * as Yaml from 'yaml';
import { appRevisionOf } from '../api/apps';
import { isAppId, isProjectId, isTaskId } from '../api/ids';
import { loadYaml, type YamlLib } from '../util/yaml';


/** A part of the text, by offsets: [start, end). */
export interface Span {
  start: number;
  end: number;
}

export type BatchBy = 'file' | { criteria: string[] };

export interface BatchSetting {
  /** The input to batch by. */
  input: string;
  by: BatchBy;
}

export interface ExecutionSettings {
  instance_type?: string;
  max_parallel_instances?: number;
  use_memoization?: boolean;
  use_elastic_disk?: boolean;
}

/** What a task document says. Input values are as written: a file input's value is its file ID (or a list of them). */
export interface TaskDocument {
  app?: string;
  project?: string;
  name?: string;
  description?: string;
  draft?: string;
  inputs: Record<string, unknown>;
  batch?: BatchSetting;
  execution?: ExecutionSettings;
  interruptible?: boolean;
}

export const TOP_KEYS = ['app', 'project', 'name', 'description', 'draft', 'inputs', 'batch', 'execution', 'interruptible'] as const;
export type TopKey = (typeof TOP_KEYS)[number];
export const EXECUTION_KEYS = ['instance_type', 'max_parallel_instances', 'use_memoization', 'use_elastic_disk'] as const;
export const BATCH_KEYS = ['input', 'by'] as const;

/** Where a key and its value are. */
export interface FieldSpan {
  key: Span;
  value: Span;
}

/** Where an input is: its key, its value, and each item's value when it is a list. */
export interface InputSpan extends FieldSpan {
  id: string;
  items: Span[];
}

export interface DocumentProblem {
  span: Span;
  message: string;
  severity: 'error' | 'warning';
  /** The input it is about, when it is about one. */
  input?: string;
}

export interface ParsedTaskDocument {
  document: TaskDocument;
  fields: Partial<Record<TopKey, FieldSpan>>;
  inputs: InputSpan[];
  /** What is wrong with the document itself (YAML, fields and their shapes), before any app or file is read. */
  problems: DocumentProblem[];
}

/** Reads a task document (the yaml package loaded on first use). */
export async function parseTaskDocument(text: string): Promise<ParsedTaskDocument> {
  return readTaskDocument(await loadYaml(), text);
}

type Node = Yaml.Node | null | undefined;

const spanOf = (node: { range?: [number, number, number] | null } | null | undefined, fallback: number): Span =>
  node?.range ? { start: node.range[0], end: node.range[1] } : { start: fallback, end: fallback };

/** Reads a task document with the yaml package given. */
export function readTaskDocument(yaml: YamlLib, text: string): ParsedTaskDocument {
  const parsed = yaml.parseDocument(text, { uniqueKeys: false, prettyErrors: false });
  const problems: DocumentProblem[] = parsed.errors.map((e) => ({
    span: { start: e.pos[0], end: Math.max(e.pos[1], e.pos[0]) },
    message: l10n.t('Not YAML here: {0}', firstLine(e.message)),
    severity: 'error',
  }));
  const out: ParsedTaskDocument = { document: { inputs: {} }, fields: {}, inputs: [], problems };
  const root = parsed.contents as Node;
  if (root === null || root === undefined || (yaml.isScalar(root) && root.value === null)) return out;
  if (!yaml.isMap(root)) {
    problems.push({ span: spanOf(root, 0), message: l10n.t('A task document is a list of fields (app:, project:, inputs:, …).'), severity: 'error' });
    return out;
  }
  const doc = out.document;
  for (const pair of root.items) {
    const key = pair.key as Node;
    const name = yaml.isScalar(key) ? String(key.value) : undefined;
    const keySpan = spanOf(key as Yaml.Node, 0);
    const value = pair.value as Node;
    const valueSpan = spanOf(value as Yaml.Node, keySpan.end);
    if (name === undefined || !(TOP_KEYS as readonly string[]).includes(name)) {
      problems.push({ span: keySpan, message: l10n.t('"{0}" is not a field of a task document: use {1}.', name ?? '?', TOP_KEYS.join(', ')), severity: 'warning' });
      continue;
    }
    const field = name as TopKey;
    if (out.fields[field]) {
      problems.push({ span: keySpan, message: l10n.t('"{0}" is given twice: only the first counts.', field), severity: 'error' });
      continue;
    }
    out.fields[field] = { key: keySpan, value: valueSpan };
    const plain = value === null || value === undefined ? null : value.toJSON();
    const at = (message: string, severity: DocumentProblem['severity'] = 'error') => problems.push({ span: plain === null ? keySpan : valueSpan, message, severity });
    switch (field) {
      case 'app': {
        const app = scalarText(plain);
        if (app === undefined) at(l10n.t('Name the app: owner/project/app/revision.'));
        else if (!isAppId(app)) at(l10n.t('"{0}" is not an app ID: owner/project/app/revision.', app));
        else if (appRevisionOf(app) === undefined) at(l10n.t('Give the app\'s revision too ({0}/<revision>): the task runs what it names, even after the app changes.', app));
        if (app !== undefined) doc.app = app;
        break;
      }
      case 'project': {
        const project = scalarText(plain);
        if (project === undefined || !isProjectId(project)) at(l10n.t('Name the project the task runs in: owner/project.'));
        if (project !== undefined) doc.project = project;
        break;
      }
      case 'name':
      case 'description': {
        const given = scalarText(plain);
        if (plain !== null && given === undefined) at(field === 'name' ? l10n.t('The name is a line of text.') : l10n.t('The description is text.'));
        if (given !== undefined) doc[field] = given;
        break;
      }
      case 'draft': {
        const id = scalarText(plain);
        if (id === undefined || !isTaskId(id)) at(l10n.t('"draft" names the draft task this document saves to (its task ID).'));
        else doc.draft = id;
        break;
      }
      case 'interruptible':
        if (typeof plain === 'boolean') doc.interruptible = plain;
        else if (plain !== null) at(l10n.t('interruptible is true or false.'));
        break;
      case 'inputs':
        readInputs(yaml, value, out, at);
        break;
      case 'batch':
        readBatch(plain, out, at);
        break;
      case 'execution':
        readExecution(yaml, value, out, at);
        break;
    }
  }
  return out;
}

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}

/** A scalar as text (a name written as a number is still a name); undefined for anything else. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function readInputs(yaml: YamlLib, value: Node, out: ParsedTaskDocument, at: (message: string) => void): void {
  if (value === null || value === undefined || (yaml.isScalar(value) && value.value === null)) return;
  if (!yaml.isMap(value)) return void at(l10n.t('inputs lists the app\'s inputs, one a line: "id: value".'));
  for (const pair of value.items) {
    const key = pair.key as Node;
    const id = yaml.isScalar(key) ? String(key.value) : undefined;
    const keySpan = spanOf(key as Yaml.Node, 0);
    if (id === undefined) continue;
    const node = pair.value as Node;
    const valueSpan = spanOf(node as Yaml.Node, keySpan.end);
    if (out.inputs.some((i) => i.id === id)) {
      out.problems.push({ span: keySpan, message: l10n.t('The input "{0}" is given twice: only the first counts.', id), severity: 'error', input: id });
      continue;
    }
    const items = yaml.isSeq(node) ? node.items.map((item) => spanOf(item as Yaml.Node, valueSpan.start)) : [];
    out.inputs.push({ id, key: keySpan, value: valueSpan, items });
    out.document.inputs[id] = node === null || node === undefined ? null : node.toJSON();
  }
}

function readBatch(plain: unknown, out: ParsedTaskDocument, at: (message: string) => void): void {
  if (plain === null) return;
  const shape = l10n.t('batch is "input: <an input>" and "by: file" or "by: {criteria: [metadata.<field>]}".');
  if (!isRecord(plain) || typeof plain.input !== 'string' || plain.input === '') return void at(shape);
  const by = plain.by;
  if (by === 'file' || by === 'item') out.document.batch = { input: plain.input, by: 'file' };
  else if (isRecord(by) && Array.isArray(by.criteria) && by.criteria.length && by.criteria.every((c) => typeof c === 'string' && /^metadata\.[^.\s]+$/.test(c))) {
    out.document.batch = { input: plain.input, by: { criteria: by.criteria as string[] } };
  } else at(shape);
}

function readExecution(yaml: YamlLib, value: Node, out: ParsedTaskDocument, at: (message: string) => void): void {
  if (value === null || value === undefined || (yaml.isScalar(value) && value.value === null)) return;
  if (!yaml.isMap(value)) return void at(l10n.t('execution lists settings: {0}.', EXECUTION_KEYS.join(', ')));
  const settings: ExecutionSettings = {};
  for (const pair of value.items) {
    const key = yaml.isScalar(pair.key) ? String(pair.key.value) : '';
    const span = spanOf(pair.value as Yaml.Node, spanOf(pair.key as Yaml.Node, 0).end);
    const v = (pair.value as Node)?.toJSON() as unknown;
    const wrong = (message: string) => out.problems.push({ span, message, severity: 'error' });
    if (key === 'instance_type') {
      if (typeof v === 'string' && v.trim()) settings.instance_type = v;
      else wrong(l10n.t('instance_type is the instance\'s name, e.g. c5.2xlarge;ebs-gp2;1024.'));
    } else if (key === 'max_parallel_instances') {
      if (typeof v === 'number' && Number.isInteger(v) && v > 0) settings.max_parallel_instances = v;
      else wrong(l10n.t('max_parallel_instances is a whole number, 1 or more.'));
    } else if (key === 'use_memoization' || key === 'use_elastic_disk') {
      if (typeof v === 'boolean') settings[key] = v;
      else wrong(l10n.t('{0} is true or false.', key));
    } else {
      out.problems.push({ span: spanOf(pair.key as Yaml.Node, 0), message: l10n.t('"{0}" is not an execution setting: use {1}.', key, EXECUTION_KEYS.join(', ')), severity: 'warning' });
    }
  }
  out.document.execution = settings;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---- Writing a document ----------------------------------------------------------------------------------------

/** What a written document says beside values: file names by ID, and the app's inputs (their order, what they take). */
export interface RenderHints {
  /** A file's or folder's name, by ID: written as a comment after the ID. */
  names?: ReadonlyMap<string, string>;
  /** The app's input ids in order: the inputs are written in that order, those not set as comments to fill in. */
  order?: readonly { id: string; hint: string }[];
}

/** A task document's text: a header that says how to use it, the fields, the inputs (names of files as comments). */
export function renderTaskDocument(doc: TaskDocument, hints: RenderHints = {}): string {
  const lines = [`# ${l10n.t('Seven Bridges task. Run Task / Save as Draft: the links above. Inputs: Ctrl+Space.')}`];
  const field = (key: string, value: unknown) => lines.push(`${key}: ${scalar(value)}`);
  if (doc.app !== undefined) field('app', doc.app);
  if (doc.project !== undefined) field('project', doc.project);
  if (doc.name !== undefined) field('name', doc.name);
  if (doc.description !== undefined) field('description', doc.description);
  if (doc.draft !== undefined) field('draft', doc.draft);
  lines.push('inputs:');
  const given = Object.keys(doc.inputs);
  const order = hints.order ?? given.map((id) => ({ id, hint: '' }));
  const written = new Set<string>();
  for (const { id, hint } of order) {
    if (id in doc.inputs) {
      lines.push(...inputLines(id, doc.inputs[id], hints.names, hint));
      written.add(id);
    } else {
      lines.push(`  # ${id}:${hint ? `  # ${hint}` : ''}`);
    }
  }
  for (const id of given) if (!written.has(id)) lines.push(...inputLines(id, doc.inputs[id], hints.names, ''));
  if (doc.batch) {
    lines.push('batch:', `  input: ${scalar(doc.batch.input)}`);
    lines.push(doc.batch.by === 'file' ? '  by: file' : `  by: { criteria: [${doc.batch.by.criteria.map(scalar).join(', ')}] }`);
  }
  const execution = doc.execution ? EXECUTION_KEYS.filter((k) => doc.execution?.[k] !== undefined) : [];
  if (execution.length) {
    lines.push('execution:');
    for (const key of execution) lines.push(`  ${key}: ${scalar(doc.execution![key])}`);
  }
  if (doc.interruptible !== undefined) field('interruptible', doc.interruptible);
  return `${lines.join('\n')}\n`;
}

/** One input's lines: `id: value  # name` or a list, one item a line. */
function inputLines(id: string, value: unknown, names: ReadonlyMap<string, string> | undefined, hint: string): string[] {
  const note = (v: unknown) => {
    const name = typeof v === 'string' ? names?.get(v) : undefined;
    return name !== undefined ? `  # ${oneLine(name)}` : '';
  };
  const key = `  ${scalar(id)}:`;
  if (Array.isArray(value) && value.length) return [`${key}${hint ? `  # ${hint}` : ''}`, ...value.map((v) => `    - ${scalar(v)}${note(v)}`)];
  return [`${key} ${scalar(value)}${note(value) || (hint ? `  # ${hint}` : '')}`];
}

/** A comment stays on its line. */
const oneLine = (text: string): string => text.replace(/[\r\n]+/g, ' ');

/** A value as YAML: plain where YAML reads it back the same, else JSON (a JSON string is a YAML string). */
export function scalar(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return plainSafe(value) ? value : JSON.stringify(value);
  if (Array.isArray(value) && value.length === 0) return '[]';
  return JSON.stringify(value);
}

/** Whether a text can be written plain: it would not read back as another type, nor start or hold YAML's marks. */
function plainSafe(value: string): boolean {
  if (!/^[A-Za-z0-9_./(][^#:\n\r]*$/.test(value) || /\s$/.test(value) || value.includes(': ') || value.includes(' #')) return false;
  return !/^(true|false|yes|no|on|off|null|~|y|n)$/i.test(value) && !/^[-+]?(\d[\d_]*(\.\d*)?([eE][-+]?\d+)?|\.\d+|\.inf|\.nan|0x[0-9a-f]+|0o[0-7]+)$/i.test(value) && !/^[{[,&*!|>'"%@`]/.test(value);
}
