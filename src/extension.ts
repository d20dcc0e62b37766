// The file VS Code loads and activates. Activation only puts a stand-in behind each contributed command and
// returns: the extension itself (main.ts, a file of its own in the bundle: dist/main.js) loads in the next turn of
// the event loop, or at once when one of its commands is run first (lazyStart.ts). So activation costs the
// extension host little more than an empty extension's, and sends, awaits and reads nothing.
import * as vscode from 'vscode';
import type { ExtensionApi } from './main';
import { startSoon } from './lazyStart';

export type { ExtensionApi } from './main';

/** What `activate` returns to the test harness only: `ready` resolves to the running parts once started. */
export interface Activation {
  readonly ready: Promise<ExtensionApi>;
}

/**
 * Set (to 1) by the test harness alone. Without it `activate` hands nothing out: another extension that needs the
 * account asks VS Code's authentication API, with the user's consent, and never reaches the token or the client.
 */
export const TEST_HOOKS_ENV = 'SEVENBRIDGES_TEST_HOOKS';

export function activate(context: vscode.ExtensionContext): Activation | undefined {
  const activatedAt = Date.now();
  const contributed = (context.extension.packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes?.commands ?? [];
  const ready = startSoon<ExtensionApi>({
    commandIds: contributed.map((c) => c.command),
    registerCommand: (id, run) => {
      const standIn = vscode.commands.registerCommand(id, run);
      context.subscriptions.push(standIn);
      return standIn;
    },
    executeCommand: (id, ...args) => vscode.commands.executeCommand(id, ...args),
    start: async () => (await import('./main')).start(context, activatedAt),
    later: (fn) => setImmediate(fn),
  });
  // A start that fails says so where a person looks (the log it would have written to does not exist yet).
  ready.catch((error: unknown) => void vscode.window.showErrorMessage(vscode.l10n.t('Seven Bridges could not start: {0}', error instanceof Error ? error.message : String(error))));
  return process.env[TEST_HOOKS_ENV] === '1' ? { ready } : undefined;
}

export function deactivate(): void {}
