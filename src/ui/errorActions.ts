// The actions offered beside an error: in a tree (tasks, files) and in a message (ui/errors.ts). No `vscode` import.
import * as l10n from '@vscode/l10n';
import { ApiError } from '../api/errors';
import { commandTitles, COMMANDS } from '../keys/commands';

export interface MessageAction {
  title: string;
  command: string;
  args?: unknown[];
}

/** The title of the action that reads a listing or a record again. */
export const retryTitle = (): string => l10n.t('Retry');

/** The title of the action that asks for a new token, wherever an error offers it (trees, notifications). */
export const setTokenAction = (): string => commandTitles().setToken;

/** The actions offered for an error: a new token when it was refused, else a retry when there is one (and the log when it helps). */
export function errorActions(error: unknown, retry?: MessageAction): MessageAction[] {
  if (error instanceof ApiError && error.isUnauthorized) return [{ title: setTokenAction(), command: COMMANDS.setToken }];
  const actions = retry ? [retry] : [];
  if (error instanceof ApiError && (error.kind === 'network' || error.kind === 'malformed' || error.kind === 'config')) {
    actions.push({ title: commandTitles().showLog, command: COMMANDS.showLog });
  }
  return actions;
}
