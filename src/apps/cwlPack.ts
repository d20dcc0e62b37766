// A CWL document packed into one, as the terminal packer (rabix/sbpack, `sbpack`/`cwlpack`) packs it before a push:
// every step whose `run:` names a local file gets that file's process in its place (packed in turn, relative to
// its own folder), `$import` is replaced by the document it names and `$include` by the text of the file; inputs,
// outputs, requirements, steps and their `in` written as lists; a step's source and an output's `outputSource` without
// a leading `#`; a step's process put in from a file marked with the versions it is run from (`sbg:appVersion`), the workflow's
// `cwlVersion` raised to the newest of its steps', `SubworkflowFeatureRequirement` added where a step is a workflow,
// and the types of a `SchemaDefRequirement` (its own, or imported from a file) written out where a port names them.
// Unlike sbpack, a `run:` or an import that names a URL is refused (nothing is fetched from the network), a cycle is
// refused with the chain that makes it, and a file outside the repository is refused unless the person allowed it.
// An already packed document (`$graph`) is left as it is. No `vscode`.
import * as path from 'path';
import * as l10n from '@vscode/l10n';
import type { RawApp } from '../api/apps';
import { loadYaml } from '../util/yaml';

/** Where the packer reads files: their text, or a rejection when there is none. */
export type ReadText = (file: string) => Promise<string>;

export interface PackOptions {
  /** The repository (the workspace folder the document is in): a file outside it is refused unless `allowOutside`. */
  root: string;
  allowOutside?: boolean;
}

export interface Packed {
  cwl: RawApp;
  /** Every file read, the document first: what a change to would change the push. */
  files: string[];
  /** The files read from outside the repository (only with `allowOutside`). */
  outside: string[];
}

/** Why a document cannot be packed, in words; `outside` names a file outside the repository (the person may allow it). */
export class PackError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly outside?: string,
  ) {
    super(message);
    this.name = 'PackError';
  }
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const URL_LIKE = /^[A-Za-z][A-Za-z0-9+.-]+:\/\//;

/** Packs the document at `entry` (an absolute path). */
export async function packCwl(entry: string, read: ReadText, options: PackOptions): Promise<Packed> {
  const packer = new Packer(read, options, await loadYaml());
  const doc = await packer.load(entry, [], entry);
  if (!isObject(doc)) throw new PackError(l10n.t('{0} is not a CWL process: it holds no object with a class.', packer.shown(entry)), entry);
  if ('$graph' in doc) return { cwl: doc, files: packer.files, outside: packer.outside };
  const cwlVersion = typeof doc.cwlVersion === 'string' ? doc.cwlVersion : 'v1.0';
  const cwl = await packer.process(doc, entry, [entry], cwlVersion);
  return { cwl, files: packer.files, outside: packer.outside };
}

class Packer {
  readonly files: string[] = [];
  readonly outside: string[] = [];
  /** The file each imported document came from: a type it defines is named relative to it. */
  private readonly origins = new WeakMap<object, string>();
  /** The user types written out so far, by name: how many times. */
  private readonly typeNames = new Map<string, number>();

  constructor(
    private readonly read: ReadText,
    private readonly options: PackOptions,
    private readonly yaml: Awaited<ReturnType<typeof loadYaml>>,
  ) {}

  /** A path as the person knows it: relative to the repository. */
  shown(file: string): string {
    const relative = path.relative(this.options.root, file);
    return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative.split(path.sep).join('/') : file;
  }

  /** Where `link` (written in `from`) points; refused when it is a URL, or outside the repository and not allowed. */
  private resolve(link: string, from: string): string {
    if (URL_LIKE.test(link) && !link.startsWith('file://')) {
      throw new PackError(l10n.t('{0} names {1}: a URL is not fetched. Save the file in the repository and name its path.', this.shown(from), link), from);
    }
    const target = path.resolve(path.dirname(from), link.startsWith('file://') ? decodeURIComponent(link.slice('file://'.length)) : link);
    const relative = path.relative(this.options.root, target);
    if (relative.startsWith('..') || path.isAbsolute(relative)) {
      if (!this.options.allowOutside) throw new PackError(l10n.t('{0} names {1}, which is outside the repository ({2}).', this.shown(from), target, this.options.root), from, target);
      if (!this.outside.includes(target)) this.outside.push(target);
    }
    return target;
  }

  private async text(file: string, from: string): Promise<string> {
    if (!this.files.includes(file)) this.files.push(file);
    try {
      return await this.read(file);
    } catch {
      throw new PackError(file === from ? l10n.t('{0} cannot be read.', this.shown(file)) : l10n.t('{0} names {1}, which cannot be read.', this.shown(from), this.shown(file)), from);
    }
  }

  /** The document in `file` (YAML or JSON), with its `$import`s and `$include`s resolved. `chain`: the files that led here. */
  async load(file: string, chain: readonly string[], from: string): Promise<unknown> {
    const text = await this.text(file, from);
    let doc: unknown;
    try {
      doc = parseDocument(text, this.yaml);
    } catch (e) {
      throw new PackError(l10n.t('{0} is neither YAML nor JSON: {1}', this.shown(file), (e instanceof Error ? e.message : String(e)).split('\n')[0]), file);
    }
    return this.imports(doc, file, [...chain, file]);
  }

  private cycle(chain: readonly string[], file: string): PackError {
    const words = [...chain.slice(chain.indexOf(file)), file].map((f) => this.shown(f)).join(' → ');
    return new PackError(l10n.t('The documents name each other in a cycle ({0}): it cannot be packed into one.', words), chain[chain.length - 1]);
  }

  /** `{$import: x}` → the document x; `{$include: x}` → the text of x; anywhere in `value`, relative to `file`. */
  private async imports(value: unknown, file: string, chain: readonly string[]): Promise<unknown> {
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const item of value) out.push(await this.imports(item, file, chain));
      return out;
    }
    if (!isObject(value)) return value;
    const keys = Object.keys(value);
    if (keys.length === 1 && (keys[0] === '$import' || keys[0] === '$include') && typeof value[keys[0]] === 'string') {
      const target = this.resolve(value[keys[0]] as string, file);
      if (chain.includes(target)) throw this.cycle(chain, target);
      if (keys[0] === '$include') return this.text(target, file);
      const loaded = await this.load(target, chain, file);
      if (typeof loaded === 'object' && loaded !== null) this.origins.set(loaded, target);
      return loaded;
    }
    const out: Json = {};
    for (const key of keys) out[key] = await this.imports(value[key], file, chain);
    return out;
  }

  /** The process's user types written out in its inputs and outputs (`userTypesOf`); the types known, for its steps. */
  private inlineTypes(cwl: Json, file: string, parentTypes: UserTypes): UserTypes {
    const types = userTypesOf(cwl, file, parentTypes, (value) => this.origins.get(value));
    // Every type defined in this document, where the platform reads it (a pulled app): left as written, so that its
    // diff stays empty; a type of another file named here is still refused when none defines it.
    const foreign = [...types.keys()].some((key) => !key.startsWith(`${file}#`));
    if (foreign) withoutSchemaDefs(cwl);
    const used = foreign ? types : new Map<string, Json>();
    for (const key of ['inputs', 'outputs'] as const) {
      if (!Array.isArray(cwl[key])) continue;
      cwl[key] = (cwl[key] as unknown[]).map((port) => (isObject(port) && 'type' in port ? { ...port, type: this.inlineType(port.type, file, used, []) } : port));
    }
    return types;
  }

  /** A type with every user type it names written out; `within`: the types being written out (a type naming itself). */
  private inlineType(type: unknown, file: string, types: UserTypes, within: readonly string[]): unknown {
    if (Array.isArray(type)) return type.map((t) => this.inlineType(t, file, types, within));
    if (typeof type === 'string') {
      // A type that names no user type stays as written (`File[]`, `Any?`): a pulled document's diff stays empty.
      const base = type.replace(/(\[\]|\?)+$/, '');
      if (BUILT_IN_TYPES.has(base) || (!base.includes('#') && !types.has(`${file}#${base}`))) return type;
      if (type.endsWith('[]')) return { type: 'array', items: this.inlineType(type.slice(0, -2), file, types, within) };
      if (type.endsWith('?')) return ['null', this.inlineType(type.slice(0, -1), file, types, within)];
      const hash = type.indexOf('#');
      const key = hash < 0 ? `${file}#${type}` : `${hash === 0 ? file : this.resolve(type.slice(0, hash), file)}#${type.slice(hash + 1)}`;
      const def = types.get(key);
      if (!def) {
        // `#T` unknown here may be defined where the platform reads it (a pulled document): left as written.
        if (hash <= 0) return type;
        throw new PackError(l10n.t('{0} names the type {1}, which no SchemaDefRequirement defines.', this.shown(file), type), file);
      }
      // Named again inside itself (a recursive record): left as its name, as the platform's schema allows.
      if (within.includes(key)) return def.name;
      const origin = key.slice(0, key.lastIndexOf('#'));
      // Written out once per place it is named; a name given twice in the document is numbered, as sbpack does.
      const name = String(def.name).replace(/^#/, '');
      const times = (this.typeNames.get(name) ?? 0) + 1;
      this.typeNames.set(name, times);
      return this.inlineType({ ...structuredClone(def), name: times === 1 ? name : `${name}_${times}` }, origin, types, [...within, key]);
    }
    if (!isObject(type)) return type;
    if (type.type === 'array' && 'items' in type) return { ...type, items: this.inlineType(type.items, file, types, within) };
    if (type.type === 'record' && 'fields' in type) {
      return { ...type, fields: asList(type.fields, 'name', 'type').map((f) => (isObject(f) && 'type' in f ? { ...f, type: this.inlineType(f.type, file, types, within) } : f)) };
    }
    if (type.type === 'enum' || (typeof type.type === 'string' && BUILT_IN_TYPES.has(type.type))) return type;
    return 'type' in type ? { ...type, type: this.inlineType(type.type, file, types, within) } : type;
  }

  /** A process packed: its steps' `run:` files in their place. `chain`: the files of the processes that led here. */
  async process(doc: unknown, file: string, chain: readonly string[], parentVersion: string, parentTypes: UserTypes = new Map()): Promise<Json> {
    if (!isObject(doc)) throw new PackError(l10n.t('{0}: a step runs something that is not a CWL process.', this.shown(file)), file);
    const cwl = listed(doc);
    const types = this.inlineTypes(cwl, file, parentTypes);
    if (cwl.class !== 'Workflow') return cwl;
    for (const step of cwl.steps as unknown[]) {
      if (!isObject(step)) continue;
      let run: Json;
      let fromFile = false;
      if (typeof step.run === 'string') {
        fromFile = true;
        if (step.run.startsWith('#')) continue; // a process of the same document's $graph
        const target = this.resolve(step.run, file);
        if (chain.includes(target)) throw this.cycle(chain, target);
        const loaded = await this.load(target, chain, file);
        run = await this.process(loaded, target, [...chain, target], stringOr(cwl.cwlVersion, parentVersion), types);
      } else if (isObject(step.run)) {
        run = await this.process(step.run, file, chain, stringOr(cwl.cwlVersion, parentVersion), types);
      } else {
        continue;
      }
      step.run = run;
      const version = stringOr(cwl.cwlVersion, parentVersion);
      if (typeof run.cwlVersion === 'string' && newer(run.cwlVersion, version)) cwl.cwlVersion = run.cwlVersion;
      // Marked only where a file was put in (a process written in the document stays as written, as pulled).
      if (fromFile && typeof run.cwlVersion === 'string') {
        const runFrom = stringOr(cwl.cwlVersion, parentVersion);
        const versions = Array.isArray(run['sbg:appVersion']) ? run['sbg:appVersion'] : [];
        if (!versions.includes(runFrom)) run['sbg:appVersion'] = [...versions, runFrom];
      }
    }
    if ((cwl.steps as unknown[]).some((s) => isObject(s) && isObject(s.run) && s.run.class === 'Workflow')) {
      const requirements = Array.isArray(cwl.requirements) ? (cwl.requirements as unknown[]) : [];
      if (!requirements.some((r) => isObject(r) && r.class === 'SubworkflowFeatureRequirement')) cwl.requirements = [...requirements, { class: 'SubworkflowFeatureRequirement' }];
    }
    return cwl;
  }
}

/** User types by where they are defined: `<absolute file>#<name>`. */
type UserTypes = ReadonlyMap<string, Json>;

const BUILT_IN_TYPES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'string', 'File', 'Directory', 'stdin', 'stdout', 'stderr', 'Any']);

const isSchemaDef = (r: unknown): r is Json => isObject(r) && r.class === 'SchemaDefRequirement';

/**
 * The user types a process knows, by where they are defined (`<file>#<name>`): its parent's, and those of its
 * `SchemaDefRequirement`, in place or imported from a file. Where one came from another file, sbpack writes each out
 * where an input or output names it (`types.yml#Sample`, `#Sample`, `Sample[]`, `Sample?`) and takes the
 * requirement out: the platform does not read the files the types came from.
 */
function userTypesOf(cwl: Json, file: string, parentTypes: UserTypes, originOf: (value: object) => string | undefined): Map<string, Json> {
  const types = new Map(parentTypes);
  const add = (value: unknown, from: string) => {
    if (Array.isArray(value)) return value.forEach((item) => add(item, originOf(value) ?? from));
    if (!isObject(value)) return;
    const origin = originOf(value) ?? from;
    if (typeof value.name === 'string') types.set(`${origin}#${value.name.replace(/^#/, '')}`, value);
  };
  const requirements = Array.isArray(cwl.requirements) ? (cwl.requirements as unknown[]) : [];
  for (const def of requirements.filter(isSchemaDef)) add(def.types, originOf(def) ?? file);
  return types;
}

/** The process without its `SchemaDefRequirement` (its types written out where they are named). */
function withoutSchemaDefs(cwl: Json): void {
  if (!Array.isArray(cwl.requirements)) return;
  const left = (cwl.requirements as unknown[]).filter((r) => !isSchemaDef(r));
  if (left.length) cwl.requirements = left;
  else delete cwl.requirements;
}

/** YAML or JSON; JSON (a file starting with `{` or `[`) by JSON.parse, many times quicker than the YAML parser. */
function parseDocument(text: string, yaml: Awaited<ReturnType<typeof loadYaml>>): unknown {
  if (/^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // YAML's flow style also starts so (`{class: Workflow}`): read as YAML.
    }
  }
  return yaml.parse(text) as unknown;
}

const stringOr = (value: unknown, otherwise: string): string => (typeof value === 'string' ? value : otherwise);

/** `v1.2` newer than `v1.0`. */
function newer(a: string, b: string): boolean {
  const parts = (v: string) => v.replace(/^v/, '').split('.').map((n) => Number.parseInt(n, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  return false;
}

/** A map (`{reads: File}`, `{reads: {type: File}}`) as a list of entries with their key (`[{id: reads, type: File}]`). */
function asList(value: unknown, key: string, valueField: string | undefined): unknown[] {
  if (Array.isArray(value)) return value;
  if (!isObject(value)) return [];
  return Object.entries(value).map(([k, v]) => (isObject(v) ? { [key]: k, ...v } : valueField ? { [key]: k, [valueField]: v } : { [key]: k }));
}

const withoutHash = (source: unknown): unknown => (typeof source === 'string' && source.startsWith('#') ? source.slice(1) : source);

/** The process with its ports, requirements, steps and steps' `in` as lists, and sources without a leading `#`. */
function listed(doc: Json): Json {
  // A list left out stays out (sbpack writes an empty one: the same CWL, and a line less in the diff of a pulled file).
  const cwl: Json = { ...doc };
  if ('inputs' in doc) cwl.inputs = asList(doc.inputs, 'id', 'type');
  if ('outputs' in doc) cwl.outputs = asList(doc.outputs, 'id', 'type');
  if ('requirements' in doc) cwl.requirements = asList(doc.requirements, 'class', undefined);
  if (cwl.class !== 'Workflow') return cwl;
  cwl.steps = asList(doc.steps, 'id', undefined).map((step) => {
    if (!isObject(step)) return step;
    const inputs = asList(step.in, 'id', 'source').map((i) => (typeof i === 'string' ? withoutHash(i) : isObject(i) ? { ...i, ...('source' in i ? { source: withoutHash(i.source) } : {}) } : i));
    return { ...step, in: inputs };
  });
  if (Array.isArray(cwl.outputs)) cwl.outputs = cwl.outputs.map((o) => (typeof o === 'string' ? withoutHash(o) : isObject(o) && 'outputSource' in o ? { ...o, outputSource: withoutHash(o.outputSource) } : o));
  return cwl;
}
