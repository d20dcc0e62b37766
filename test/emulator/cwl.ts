/**
 * Reading CWL as the platform does (platform-api.md §14.2): an app's inputs and outputs (a list or a map; draft-2 ids written
 * `#reads`), their types in every form (`File?`, `File[]`, `["null", X]`, `{type: array, items}`, enums, records),
 * which inputs are required, the steps of a workflow; the checks an install makes (§14.3), and whether a value fits
 * an input's type (§11.1, used by the task checks in taskRules.ts).
 *
 * Picks ([infer]): an id is read without its leading `#` and up to its last `/` (`#main/reads` is `reads`); a type
 * name the emulator does not know (`Flie`), an input or output without a type in a map, a workflow step without `run`,
 * a missing `cwlVersion` or `outputs` are kept in `sbg:validationErrors`, not refused; `Any` takes any value.
 */
import { badRequest } from './errors';

export type Cwl = Record<string, unknown>;

/** A CWL type, read. */
export type CwlType =
  | { k: 'null' }
  | { k: 'any' }
  | { k: 'File' }
  | { k: 'Directory' }
  | { k: 'int' | 'long' | 'float' | 'double' | 'string' | 'boolean' }
  | { k: 'enum'; symbols: string[] }
  | { k: 'array'; items: CwlType }
  | { k: 'record'; fields: { name: string; type: CwlType }[] }
  | { k: 'union'; of: CwlType[] }
  | { k: 'unknown'; name: string };

export interface Port {
  id: string;
  type: CwlType;
  /** not optional and without a default (CWL 1.0: the default is used when no value is given) */
  required: boolean;
  hasDefault: boolean;
  secondaryFiles: string[];
  raw: Cwl;
}

const PRIMITIVES = ['int', 'long', 'float', 'double', 'string', 'boolean'] as const;
const CLASSES = ['CommandLineTool', 'Workflow', 'ExpressionTool'];

const isObj = (v: unknown): v is Cwl => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `#main/reads` → `reads`; `reads` stays. */
export function shortId(id: string): string {
  const bare = id.startsWith('#') ? id.slice(1) : id;
  return bare.slice(bare.lastIndexOf('/') + 1);
}

/** Reads a type expression; `unknown` for what the emulator cannot read. */
export function readType(t: unknown): CwlType {
  if (typeof t === 'string') {
    if (t.endsWith('?')) return { k: 'union', of: [{ k: 'null' }, readType(t.slice(0, -1))] };
    if (t.endsWith('[]')) return { k: 'array', items: readType(t.slice(0, -2)) };
    if (t === 'null') return { k: 'null' };
    if (t === 'Any') return { k: 'any' };
    if (t === 'File' || t === 'Directory') return { k: t };
    if (t === 'stdout' || t === 'stderr') return { k: 'File' };
    if ((PRIMITIVES as readonly string[]).includes(t)) return { k: t as (typeof PRIMITIVES)[number] };
    return { k: 'unknown', name: t };
  }
  if (Array.isArray(t)) return t.length === 1 ? readType(t[0]) : { k: 'union', of: t.map(readType) };
  if (isObj(t)) {
    if (t.type === 'array') return { k: 'array', items: readType(t.items) };
    if (t.type === 'enum' && Array.isArray(t.symbols)) return { k: 'enum', symbols: t.symbols.map((s) => shortId(String(s))) };
    if (t.type === 'record') {
      return { k: 'record', fields: entries(t.fields).map(([name, f]) => ({ name: shortId(name), type: readType(isObj(f) ? f.type : f) })) };
    }
  }
  return { k: 'unknown', name: JSON.stringify(t)?.slice(0, 40) ?? String(t) };
}

/** `[{id, …}]` or `{id: {…} | "<type>"}` as [id, entry] pairs (a list item without an id gets ''). */
function entries(list: unknown): [string, unknown][] {
  if (Array.isArray(list)) return list.map((e) => [isObj(e) && typeof e.id === 'string' ? e.id : isObj(e) && typeof e.name === 'string' ? e.name : '', e]);
  if (isObj(list)) return Object.entries(list);
  return [];
}

export function acceptsNull(t: CwlType): boolean {
  return t.k === 'null' || t.k === 'any' || (t.k === 'union' && t.of.some(acceptsNull));
}

/** The type without its `null` member (`File?` → File). */
export function nonNull(t: CwlType): CwlType {
  if (t.k !== 'union') return t;
  const rest = t.of.filter((m) => m.k !== 'null');
  return rest.length === 1 ? rest[0] : { k: 'union', of: rest };
}

function ports(doc: Cwl, key: 'inputs' | 'outputs'): Port[] {
  return entries(doc[key]).map(([id, e]) => {
    const raw: Cwl = isObj(e) ? e : { type: e };
    const type = readType(raw.type);
    const hasDefault = raw.default !== undefined && raw.default !== null;
    const binding = isObj(raw.inputBinding) ? raw.inputBinding : {};
    const secondary = raw.secondaryFiles ?? binding.secondaryFiles;
    return {
      id: shortId(id),
      type,
      required: !acceptsNull(type) && !hasDefault,
      hasDefault,
      secondaryFiles: (Array.isArray(secondary) ? secondary : secondary === undefined ? [] : [secondary]).filter((s): s is string => typeof s === 'string'),
      raw,
    };
  });
}

export const inputsOf = (doc: Cwl): Port[] => ports(doc, 'inputs');
export const outputsOf = (doc: Cwl): Port[] => ports(doc, 'outputs');

/** A workflow's step ids in order; a tool's own name (one step). */
export function stepIds(doc: Cwl): string[] {
  return doc.class === 'Workflow' ? entries(doc.steps).map(([id]) => shortId(id)) : [];
}

/** The name of a secondary file: `.bai` appends, `^.bai` replaces the last extension (each `^` one more). */
export function secondaryName(primary: string, pattern: string): string {
  let name = primary;
  let rest = pattern;
  while (rest.startsWith('^')) {
    const dot = name.lastIndexOf('.');
    if (dot > 0) name = name.slice(0, dot);
    rest = rest.slice(1);
  }
  return name + rest;
}

/**
 * The install's checks: refused with 400/90000 when there is no class or an unknown one, an input without an id or a
 * type, a workflow without steps; the milder problems are returned, to be kept in `sbg:validationErrors`.
 */
export function checkDocument(doc: unknown): string[] {
  if (!isObj(doc)) throw badRequest('The app is not a CWL document: give an object with a class, inputs and outputs.');
  if (typeof doc.class !== 'string' || !CLASSES.includes(doc.class)) {
    throw badRequest(`The app has ${doc.class === undefined ? 'no class' : `an unknown class '${String(doc.class)}'`}: use one of ${CLASSES.join(', ')}.`);
  }
  if (doc.inputs === undefined || !(Array.isArray(doc.inputs) || isObj(doc.inputs))) throw badRequest("The app has no 'inputs' (a list, which may be empty).");
  for (const [id, e] of entries(doc.inputs)) {
    if (shortId(id) === '') throw badRequest("Every input needs an 'id'.");
    if (Array.isArray(doc.inputs) && (!isObj(e) || e.type === undefined)) throw badRequest(`Input '${shortId(id)}' has no 'type'.`);
  }
  if (doc.class === 'Workflow' && entries(doc.steps).length === 0) throw badRequest("A workflow needs 'steps': it has none.");
  const problems: string[] = [];
  if (doc.cwlVersion === undefined) problems.push("No 'cwlVersion': read as v1.0.");
  if (doc.outputs === undefined) problems.push("No 'outputs': the app makes nothing the platform keeps.");
  const unknownTypes = (where: string, list: Port[]) => {
    for (const p of list) {
      const names = typeNames(p.type);
      if (isObj(p.raw) && p.raw.type === undefined) problems.push(`${where} '${p.id}' has no type.`);
      for (const n of names) problems.push(`${where} '${p.id}': unknown type '${n}'.`);
    }
  };
  unknownTypes('Input', inputsOf(doc));
  unknownTypes('Output', outputsOf(doc));
  for (const [id, step] of entries(doc.steps)) {
    if (!isObj(step) || step.run === undefined) problems.push(`Step '${shortId(id)}' has no 'run'.`);
  }
  return problems;
}

function typeNames(t: CwlType): string[] {
  switch (t.k) {
    case 'unknown':
      return t.name === 'undefined' ? [] : [t.name];
    case 'array':
      return typeNames(t.items);
    case 'union':
      return t.of.flatMap(typeNames);
    case 'record':
      return t.fields.flatMap((f) => typeNames(f.type));
    default:
      return [];
  }
}

/** A problem with one input's value (the stand-in shape of platform-api.md §11.2, less the input's id). */
export interface ValueProblem {
  type: 'INVALID_TYPE' | 'INVALID_VALUE' | 'FILE_NOT_FOUND';
  message: string;
}

/** How a file value's target is checked: undefined when it fits, else the problem. */
export type FileCheck = (value: { class: string; path: string }, wanted: 'File' | 'Directory') => ValueProblem | undefined;

const typeWords = (t: CwlType): string => {
  switch (t.k) {
    case 'array':
      return `a list of ${typeWords(t.items)}`;
    case 'enum':
      return `one of ${t.symbols.join(', ')}`;
    case 'union':
      return t.of.map(typeWords).join(' or ');
    case 'record':
      return `an object with ${t.fields.map((f) => f.name).join(', ')}`;
    case 'unknown':
      return t.name;
    default:
      return t.k;
  }
};

/** The problems of a value for a type (empty when it fits). An int is taken where a float is expected. */
export function checkValue(value: unknown, t: CwlType, files: FileCheck): ValueProblem[] {
  const wrong = (): ValueProblem[] => [{ type: 'INVALID_TYPE', message: `expected ${typeWords(t)}, got ${JSON.stringify(value)?.slice(0, 60)}` }];
  switch (t.k) {
    case 'any':
    case 'unknown':
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
      return typeof value === 'string' ? [] : wrong();
    case 'boolean':
      return typeof value === 'boolean' ? [] : wrong();
    case 'enum':
      if (typeof value !== 'string') return wrong();
      return t.symbols.includes(value) ? [] : [{ type: 'INVALID_VALUE', message: `'${value}' is not one of ${t.symbols.join(', ')}` }];
    case 'File':
    case 'Directory': {
      if (!isObj(value) || typeof value.path !== 'string') return wrong();
      if (value.class !== t.k) return [{ type: 'INVALID_TYPE', message: `expected a ${t.k}, got a ${String(value.class)}` }];
      const problem = files({ class: t.k, path: value.path }, t.k);
      return problem ? [problem] : [];
    }
    case 'array':
      return Array.isArray(value) ? value.flatMap((v) => checkValue(v, t.items, files)) : wrong();
    case 'record': {
      if (!isObj(value)) return wrong();
      return t.fields.flatMap((f) => (value[f.name] === undefined && acceptsNull(f.type) ? [] : checkValue(value[f.name] ?? null, f.type, files)));
    }
    case 'union': {
      if (value === null) return acceptsNull(t) ? [] : wrong();
      const members = t.of.filter((m) => m.k !== 'null');
      if (members.length === 1) return checkValue(value, members[0], files);
      const each = members.map((m) => checkValue(value, m, files));
      return each.some((p) => p.length === 0) ? [] : wrong();
    }
  }
}
