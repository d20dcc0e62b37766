// The one way to add a command. Each feature declares its commands in one table (its `commands.ts`): what a command
// acts on and its run function. This module registers them (the palette, menus and keybindings all reach the same
// entry), finds what each acts on in one order — its argument(s), then a view's selection, then a quick pick — and
// turns a thrown error into the one message, `describeError`'s words with the actions that fit.
import * as vscode from 'vscode';
import { commandTitles, COMMANDS, type CommandName } from '../keys/commands';
import { retryTitle } from './errorActions';
import { showError } from './errors';

/** A quick pick's title for a command run from the palette: "Seven Bridges: Copy Task ID". */
export const paletteTitle = (command: string): string => vscode.l10n.t({ message: 'Seven Bridges: {0}', args: [command], comment: ['{0}: a command\'s title'] });

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

/** A command: its name in src/keys/commands.ts (so its title), what it acts on, and what it does. */
export interface Command {
  readonly name: CommandName;
  /** Runs with the command's arguments as VS Code passes them. */
  readonly run: (args: unknown[], selections: Selections) => Promise<unknown>;
}

/** Options a script or a test may pass after the targets (`{ confirm: false }`, a copy's arguments). */
export type CommandOptions = Record<string, unknown>;

/** A command that acts on nothing in particular; it gets its arguments as they came. */
export function plain(name: CommandName, run: (...args: unknown[]) => unknown): Command {
  return { name, run: async (args) => run(...args) };
}

/** A command that acts on one target. */
export function onOne<T, A = undefined>(name: CommandName, spec: TargetSpec<T, A>, run: (target: T, options: CommandOptions) => unknown): Command {
  return {
    name,
    run: async (args, selections) => {
      const found = await resolve(name, spec, args, selections, false);
      return found && found.targets.length ? run(found.targets[0], found.options) : found?.fallback;
    },
  };
}

/** A command that acts on one target or several (the rows selected together). */
export function onMany<T, A = undefined>(name: CommandName, spec: TargetSpec<T, A>, run: (targets: T[], options: CommandOptions) => unknown): Command {
  return {
    name,
    run: async (args, selections) => {
      const found = await resolve(name, spec, args, selections, true);
      return found && found.targets.length ? run(found.targets, found.options) : found?.fallback;
    },
  };
}

/** The selections of the tree views, the most recently changed first: "the view's selection" a command falls back on. */
export class Selections {
  private readonly views: vscode.TreeView<unknown>[] = [];

  /** Follows a view's selection. */
  watch<N>(view: vscode.TreeView<N>): vscode.Disposable {
    const tracked = view as vscode.TreeView<unknown>;
    this.views.push(tracked);
    return view.onDidChangeSelection(() => {
      this.views.splice(this.views.indexOf(tracked), 1);
      this.views.unshift(tracked);
    });
  }

  /** Each view's selected rows, the view selected in last first. */
  all(): (readonly unknown[])[] {
    return this.views.map((view) => view.selection);
  }
}

/** Registers every command of a table: the one place a command is registered. */
export function registerCommands(commands: readonly Command[], selections: Selections): vscode.Disposable[] {
  return commands.map((command) =>
    vscode.commands.registerCommand(COMMANDS[command.name], async (...args: unknown[]) => {
      try {
        return await command.run(args, selections);
      } catch (error) {
        // Not awaited: the command ends now, its message stays until dismissed.
        void showError(commandTitles()[command.name], error, { title: retryTitle(), command: COMMANDS[command.name], args });
        return undefined;
      }
    }),
  );
}

interface Resolved<T> {
  targets: T[];
  options: CommandOptions;
  /** What `orElse` returned when nothing was at hand. */
  fallback?: unknown;
}

/**
 * What a command acts on, in the one order: the arguments (a row clicked, then the rows selected with it, as VS Code
 * passes them; a record or an ID, or IDs named in the options, from a script); else the selection of the view selected in last that holds any that
 * fit; else `orElse`, or the type's quick pick. Undefined when an argument points at something else (a row of another
 * kind): nothing is done.
 */
async function resolve<T, A>(name: CommandName, spec: TargetSpec<T, A>, args: unknown[], selections: Selections, many: boolean): Promise<Resolved<T> | undefined> {
  const { type } = spec;
  const fits = spec.fits ?? (() => true);
  const unique = (list: T[]): T[] => [...new Map(list.map((t) => [type.key(t), t])).values()];
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
  if (given.length) return { targets: given, options };
  // Named in options or picked, targets are as given: a flow may say what was given twice (a copy's pasted IDs).
  const named = spec.named?.(options) ?? [];
  if (named.length) return { targets: named, options };
  if (pointed || spec.from === 'argument') return undefined;
  for (const selection of selections.all()) {
    const selected = unique(selection.map((row) => type.read(row)).filter((t): t is T => t !== undefined && fits(t)));
    if (selected.length) return { targets: many ? selected : selected.slice(0, 1), options };
  }
  if (spec.orElse) return { targets: [], options, fallback: await spec.orElse(options) };
  const picked = type.pick ? await type.pick({ title: paletteTitle(commandTitles()[name]), fits, many, ask: spec.ask }) : [];
  return { targets: picked, options };
}

/** An argument that carries options: a plain object that is no row (rows have a `kind`). */
function isOptions(value: unknown): value is CommandOptions {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype && !('kind' in value);
}
