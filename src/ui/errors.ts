import * as vscode from 'vscode';
import { ApiError, describeError } from '../api/errors';
import { setTokenAction } from './errorActions';
import { COMMANDS } from '../keys/commands';

export { setTokenAction } from './errorActions';

/** A project picker's row when the caller's projects could not be listed (its codicon added by the picker). */
export const couldNotListProjects = (): string => vscode.l10n.t('Could not list your projects');

export interface ErrorAction {
  title: string;
  run: () => unknown;
}

/**
 * Tells the user what went wrong and what to do: a rejected or missing token offers to set one,
 * other errors offer the actions given (e.g. "Retry"). Returns once the message is dismissed or acted on.
 * `what` is a whole clause ("Could not read the task"); the explanation follows it after a colon.
 */
export async function showApiError(what: string, error: unknown, ...actions: ErrorAction[]): Promise<void> {
  if (error instanceof ApiError && error.isCancelled) return;
  const text = vscode.l10n.t({ message: '{0}: {1}', args: [what, describeError(error)], comment: ['{0}: what failed ("Could not read the task"); {1}: why, and what to do'] });
  const all = [...actions];
  if (error instanceof ApiError && error.isUnauthorized) {
    all.unshift({ title: setTokenAction(), run: () => vscode.commands.executeCommand(COMMANDS.setToken) });
  }
  const severe = !(error instanceof ApiError) || !error.isTransient;
  const show = severe ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
  const chosen = await show(text, ...all.map((a) => a.title));
  await all.find((a) => a.title === chosen)?.run();
}
