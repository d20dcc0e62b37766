// Run App on These Files…: the files and folders a person picked, placed into the app's file inputs. Each is placed
// once: first into the inputs whose file types name it, then what is left into the file inputs that name no types;
// required inputs before optional ones, each group in the app's order. A list (File[]) takes every file that fits, a
// single File the first; Directory inputs take folders the same way. No `vscode`.
import { fileKind, fitsFileTypes, type AppInput } from '../apps/cwlInputs';

/** A file or folder picked. */
export interface PickedFile {
  id: string;
  name: string;
  folder: boolean;
}

export interface Placement {
  /** Input ID → a file ID (File, Directory) or a list of them (File[], Directory[]). */
  inputs: Record<string, string | string[]>;
  /** What fitted no input. */
  unplaced: PickedFile[];
}

export function placeFiles(inputs: readonly AppInput[], picked: readonly PickedFile[]): Placement {
  const placed = new Set<string>();
  const out: Record<string, string | string[]> = {};
  const fileInputs = inputs.flatMap((input) => {
    const kind = fileKind(input.type);
    return kind ? [{ input, ...kind }] : [];
  });
  const byNeed = (list: typeof fileInputs) => [...list.filter((f) => f.input.required), ...list.filter((f) => !f.input.required)];
  const typed = (f: (typeof fileInputs)[number]) => f.kind === 'File' && f.input.fileTypes.length > 0;
  for (const f of [...byNeed(fileInputs.filter(typed)), ...byNeed(fileInputs.filter((x) => !typed(x)))]) {
    const fits = picked.filter((p) => !placed.has(p.id) && p.folder === (f.kind === 'Directory') && (f.kind === 'Directory' || fitsFileTypes(p.name, f.input.fileTypes)));
    const taken = f.many ? fits : fits.slice(0, 1);
    if (!taken.length) continue;
    for (const p of taken) placed.add(p.id);
    out[f.input.id] = f.many ? taken.map((p) => p.id) : taken[0].id;
  }
  return { inputs: out, unplaced: picked.filter((p) => !placed.has(p.id)) };
}
