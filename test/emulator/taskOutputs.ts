/**
 * The files a task makes when it completes (platform-api.md §11.4): one per File output (a list of one for a File[] output),
 * in the project's root folder, `origin.task` its ID. Picks ([infer]): named after the task's first input file (up to
 * its first '.') with the output's first `sbg:fileTypes` as the extension (`.bam`, `.vcf.gz`), else its glob's, else
 * `.out`; a name already in the root gets `_1_`, `_2_`, … in front; sizes drawn from the task ID and the output;
 * Directory and non-file outputs are null.
 */
import type { FileRec, FileValue, Store, TaskRec } from './data';
import { nonNull, outputsOf, type Port } from './cwl';
import { findApp } from './apps';
import { autoName } from './fileRules';
import { isFileValue } from './taskRules';
import { Prng, isoZ, seedOf } from './prng';

/** Makes the outputs of a task that completed and sets `t.outputs`. */
export function makeOutputs(store: Store, t: TaskRec, now: number): void {
  const project = store.projectById.get(t.project);
  if (!project) return;
  const base = baseName(store, t);
  const outputs: TaskRec['outputs'] = {};
  for (const port of outputsOf(findApp(store, t.app).rev.content)) {
    const type = nonNull(port.type);
    const isFile = type.k === 'File';
    const isList = type.k === 'array' && type.items.k === 'File';
    if (!isFile && !isList) {
      outputs[port.id] = null;
      continue;
    }
    const f = addOutput(store, t, port, `${base}${extensionOf(port)}`, project.root_folder, now);
    const value: FileValue = { class: 'File', path: f.id, name: f.name };
    outputs[port.id] = isList ? [value] : value;
  }
  t.outputs = outputs;
}

function addOutput(store: Store, t: TaskRec, port: Port, name: string, folder: string, now: number): FileRec {
  const at = isoZ(now);
  const rng = new Prng(seedOf(`output:${t.id}:${port.id}`));
  return store.addFile({
    id: store.newFileId(rng), name: autoName(store, folder, name), size: rng.int(10_000, 500_000_000), project: t.project, parent: folder,
    type: 'file', created_on: at, modified_on: at, origin: { task: t.id }, tags: [], metadata: {},
  });
}

function baseName(store: Store, t: TaskRec): string {
  for (const v of Object.values(t.inputs).flatMap((x) => (Array.isArray(x) ? x : [x]))) {
    const name = isFileValue(v) && v.class === 'File' ? store.fileById.get(v.path)?.name : undefined;
    if (name) return name.split('.')[0];
  }
  return t.name.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 60);
}

function extensionOf(port: Port): string {
  const types = port.raw['sbg:fileTypes'];
  const first = typeof types === 'string' ? types.split(',')[0].trim() : '';
  if (first) return `.${first.toLowerCase()}`;
  const binding = port.raw.outputBinding as { glob?: unknown } | undefined;
  const glob = typeof binding?.glob === 'string' ? /\*(\.[A-Za-z0-9.]+)$/.exec(binding.glob)?.[1] : undefined;
  return glob ?? '.out';
}
