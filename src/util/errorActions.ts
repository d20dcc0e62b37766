// The actions offered beside an error in a tree (tasks, files). No `vscode` import.
import * as l10n from '@vscode/l10n';
import { ApiError } from '../api/errors';

export interface MessageAction {
  title: string;
  command: string;
  args?: unknown[];
}

/** The title of the action that asks for a new token, wherever an error offers it (trees, notifications). */
export const setTokenAction = (): string => l10n.t('Set Authentication Token');

/** The actions offered for an error: a new token when it was refused, else a retry (and the log when it helps). */
export function errorActions(error: unknown, retry: MessageAction): MessageAction[] {
  if (error instanceof ApiError && error.isUnauthorized) return [{ title: setTokenAction(), command: 'sevenbridges.setToken' }];
  const actions = [retry];
  if (error instanceof ApiError && (error.kind === 'network' || error.kind === 'malformed' || error.kind === 'config')) {
    actions.push({ title: l10n.t('Show Log'), command: 'sevenbridges.showLog' });
  }
  return actions;
}
