// What a command acts on, found in the one order: its argument(s), then a view's selection, then a quick pick. The
// commands' side (registering, the error message) is ui/commands.ts; this part has no `vscode` import, so its rules
// are unit-tested on plain Node (test/unit/ui/targets.test.ts).

/** A kind of thing commands act on (a task, a file, a copy job…): how an argument, a row or a quick pick gives one. */
export interface TargetType<T, A = undefined> {
  /** The target a command's argument or a view's row stands for (a row, a record, an ID), or undefined. */
  read(value: unknown): T | undefined;
  /** What tells two targets apart: one selected twice is acted on once. */
  key(target: T): string;
  /** Asks for targets when neither the arguments nor a selection hold any; [] when dismissed. */
  pick?(request: PickRequest<T, A>): Promise<T[]>;
}

export interface PickRequest<T, A> {
  /** The quick pick's title ("Seven Bridges: Abort Task…"). */
  title: string;
  /** What may be offered. */
  fits: (target: T) => boolean;
  many: boolean;
  /** The command's own wishes for the pick (which list, which words). */
  ask: A | undefined;
}

/** Options a script or a test may pass after the targets (`{ confirm: false }`, a copy's arguments). */
export type CommandOptions = Record<string, unknown>;

export interface TargetSpec<T, A = undefined> {
  type: TargetType<T, A>;
  /** Which targets a selection and a pick offer. What an argument names is taken as given: the run says why it cannot act. */
  fits?: (target: T) => boolean;
  /** The command's wishes for the type's pick. */
  ask?: A;
  /** Targets a script names in its options (a copy's `ids`): taken before any selection. */
  named?: (options: CommandOptions) => T[] | undefined;
  /** Where targets may come from: an argument only (a row's own button), or also a selection and a pick (the default). */
  from?: 'argument' | 'anywhere';
  /** What is done when nothing is at hand, in place of the type's pick (ask for something else, say how to use it). */
  orElse?: (options: CommandOptions) => unknown;
}

export interface Resolved<T> {
  /** What to act on: at least one, or none when `orElse` ran or the pick was dismissed. */
  targets: T[];
  options: CommandOptions;
  /** What `orElse` returned when nothing was at hand. */
  fallback?: unknown;
}

export interface ResolveContext {
  /** Each tree view's selected rows, the view selected in last first. */
  selections: () => (readonly unknown[])[];
  /** The pick's title. */
  title: string;
  /** One target (the first found) or several. */
  many: boolean;
}

/**
 * What a command acts on, in the one order: the arguments (a row clicked, then the rows selected with it, as VS Code
 * passes them; a record or an ID, or IDs named in the options, from a script); else the selection of the view
 * selected in last that holds any that fit; else `orElse`, or the type's pick. Undefined when an argument points at
 * something else (a row of another kind): nothing is done.
 */
export async function resolveTargets<T, A>(spec: TargetSpec<T, A>, args: readonly unknown[], context: ResolveContext): Promise<Resolved<T> | undefined> {
  const { type } = spec;
  const fits = spec.fits ?? (() => true);
  const unique = (list: T[]): T[] => [...new Map(list.map((t) => [type.key(t), t])).values()];
  const one = (list: T[]): T[] => (context.many ? list : list.slice(0, 1));
  let options: CommandOptions = {};
  let pointed = false;
  let listed: T[] | undefined;
  const single: T[] = [];
  for (const arg of args) {
    if (arg === undefined || arg === null) continue;
    if (Array.isArray(arg)) {
      const read = arg.map((a) => type.read(a)).filter((t): t is T => t !== undefined);
      if (read.length) listed = read;
      else pointed ||= arg.length > 0;
      continue;
    }
    const read = type.read(arg);
    if (read !== undefined) single.push(read);
    else if (isOptions(arg)) options = arg;
    else pointed = true;
  }
  const given = unique(listed ?? single);
  if (given.length) return { targets: one(given), options };
  // Named in options or picked, targets are as given: a flow may say what was given twice (a copy's pasted IDs).
  const named = spec.named?.(options) ?? [];
  if (named.length) return { targets: one(named), options };
  if (pointed || spec.from === 'argument') return undefined;
  for (const selection of context.selections()) {
    const selected = unique(selection.map((row) => type.read(row)).filter((t): t is T => t !== undefined && fits(t)));
    if (selected.length) return { targets: one(selected), options };
  }
  if (spec.orElse) return { targets: [], options, fallback: await spec.orElse(options) };
  const picked = type.pick ? await type.pick({ title: context.title, fits, many: context.many, ask: spec.ask }) : [];
  return { targets: one(picked), options };
}

/** An argument that carries options: a plain object that is no row (rows have a `kind`). */
export function isOptions(value: unknown): value is CommandOptions {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype && !('kind' in value);
}
