import * as vscode from 'vscode';
import { ApiError, describeError } from '../api/errors';
import { COMMAND_TITLES, COMMANDS } from '../keys/commands';

export interface ErrorAction {
  title: string;
  run: () => unknown;
}

/**
 * Tells the user what went wrong and what to do: a rejected or missing token offers to set one,
 * other errors offer the actions given (e.g. "Retry"). Returns once the message is dismissed or acted on.
 */
export async function showApiError(prefix: string, error: unknown, ...actions: ErrorAction[]): Promise<void> {
  if (error instanceof ApiError && error.isCancelled) return;
  const text = `${prefix}: ${describeError(error)}`;
  const all = [...actions];
  if (error instanceof ApiError && error.isUnauthorized) {
    all.unshift({ title: COMMAND_TITLES.setToken, run: () => vscode.commands.executeCommand(COMMANDS.setToken) });
  }
  const severe = !(error instanceof ApiError) || !error.isTransient;
  const show = severe ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
  const chosen = await show(text, ...all.map((a) => a.title));
  await all.find((a) => a.title === chosen)?.run();
}
