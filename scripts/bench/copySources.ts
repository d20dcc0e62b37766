// What the copy scenarios copy: files (not folders, so "1,000 items" is 1,000 files) from the projects other
// than the destination, and where: the root of a project the caller can write to.
import type { Emulator } from '../../test/emulator';

export const DESTINATION = 'rfranklin/variant-calling';

export function pickFiles(emulator: Emulator, count: number): string[] {
  const ids = emulator.data.files.filter((f) => f.type === 'file' && f.parent !== null && f.project !== DESTINATION).map((f) => f.id);
  if (ids.length < count) throw new Error(`the emulator has only ${ids.length} files to copy, ${count} wanted`);
  return ids.slice(0, count);
}

/** When the platform (emulator) finishes a job of `files` files submitted at `at`: its documented timeline. */
export function platformFinish(at: number, files: number, stepMs: number): number {
  return at + (2 + Math.ceil(files / 25)) * stepMs;
}
