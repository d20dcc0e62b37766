// The one way an error reaches a person: what failed, `describeError`'s words for why and what to do, and the actions
// that fit (a new token when it was refused, else Retry, and the log when it helps). Commands' errors come here
// through ui/commands.ts; a flow that goes on after a failed step (a copy whose account could not be checked) too.
import * as vscode from 'vscode';
import { ApiError, describeError } from '../api/errors';
import { errorActions, type MessageAction } from './errorActions';

export { setTokenAction } from './errorActions';

/** A project picker's row when the caller's projects could not be listed (its codicon added by the picker). */
export const couldNotListProjects = (): string => vscode.l10n.t('Could not list your projects');

/**
 * Tells what went wrong and offers what to do; runs the action chosen. Resolves once the message is dismissed or
 * acted on. `what` is a whole clause ("Could not read the task", or a command's title); the explanation follows it
 * after a colon. A cancellation says nothing.
 */
export async function showError(what: string, error: unknown, retry?: MessageAction): Promise<void> {
  if (error instanceof ApiError && error.isCancelled) return;
  const text = vscode.l10n.t({ message: '{0}: {1}', args: [what, describeError(error)], comment: ['{0}: what failed ("Could not read the task"); {1}: why, and what to do'] });
  const actions = errorActions(error, retry);
  const severe = !(error instanceof ApiError) || !error.isTransient;
  const show = severe ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
  const chosen = await show(text, ...actions.map((a) => a.title));
  const action = actions.find((a) => a.title === chosen);
  if (action) await vscode.commands.executeCommand(action.command, ...(action.args ?? []));
}
