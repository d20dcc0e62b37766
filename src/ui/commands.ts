// The one way to add a command. Each feature declares its commands in one table (its `commands.ts`): what a command
// acts on and its run function. This module registers them (the palette, menus and keybindings all reach the same
// entry), finds what each acts on (ui/targets.ts: its argument(s), then a view's selection, then a quick pick) and
// turns a thrown error into the one message (ui/errors.ts), with Retry running the command again as it was run.
import * as vscode from 'vscode';
import { commandTitles, COMMANDS, type CommandName } from '../keys/commands';
import { retryTitle } from './errorActions';
import { showError } from './errors';
import { resolveTargets, type CommandOptions, type Resolved, type TargetSpec } from './targets';
import type { Later } from '../util/later';

export type { CommandOptions, PickRequest, TargetSpec, TargetType } from './targets';

/** A quick pick's title for a command run from the palette: "Seven Bridges: Copy Task ID". */
export const paletteTitle = (command: string): string => vscode.l10n.t({ message: 'Seven Bridges: {0}', args: [command], comment: ['{0}: a command\'s title'] });

/** A command: its name in src/keys/commands.ts (so its ID and title), and what it does with the arguments it is given. */
export interface Command {
  readonly name: CommandName;
  readonly run: (args: unknown[], selections: Selections) => Promise<unknown>;
}

/**
 * What a feature loads on first use (dist/features.js, src/features.ts): `load` gets it, for a drop, a notification's
 * button, a timeline; its command table goes to `commands`, registered once a command is first run (main.ts puts a
 * stand-in behind every command until then).
 */
export interface OnFirstUse<T> {
  readonly load: Later<T>;
  commands(table: (loaded: T) => readonly Command[]): void;
}

/** A command that acts on nothing in particular; it gets its arguments as they came. */
export function plain(name: CommandName, run: (...args: unknown[]) => unknown): Command {
  return { name, run: async (args) => run(...args) };
}

/** A command that acts on one target. */
export function onOne<T, A = undefined>(name: CommandName, spec: TargetSpec<T, A>, run: (target: T, options: CommandOptions) => unknown): Command {
  return { name, run: async (args, selections) => act(await find(name, spec, args, selections, false), (targets, options) => run(targets[0], options)) };
}

/** A command that acts on one target or several (the rows selected together). */
export function onMany<T, A = undefined>(name: CommandName, spec: TargetSpec<T, A>, run: (targets: T[], options: CommandOptions) => unknown): Command {
  return { name, run: async (args, selections) => act(await find(name, spec, args, selections, true), run) };
}

function find<T, A>(name: CommandName, spec: TargetSpec<T, A>, args: unknown[], selections: Selections, many: boolean): Promise<Resolved<T> | undefined> {
  return resolveTargets(spec, args, { selections: () => selections.all(), title: paletteTitle(commandTitles()[name]), many });
}

function act<T>(found: Resolved<T> | undefined, run: (targets: T[], options: CommandOptions) => unknown): unknown {
  return found && found.targets.length ? run(found.targets, found.options) : found?.fallback;
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
