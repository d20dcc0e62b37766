import * as vscode from 'vscode';
import type { Services } from '../services';
import { accountMenu, AccountStatus } from './accountStatus';
import { importCredentials, openTokenPage, selectPlatform, setToken, signOut } from './commands';
import { COMMANDS } from '../keys/commands';
import { CONTEXT_KEYS } from '../keys/context';
import { platformFor } from '../api/endpoint';
import { setContextKey } from '../ui/whenContext';

/** Sign-in: token, platform, credentials file, the signed-in indicator. */
export function registerAuth(services: Services): void {
  const { context, session, log } = services;
  const status = new AccountStatus(services);
  // The when-clauses' view of the sign-in: the welcome views, the title buttons, the platform's token page.
  const showSignIn = () => {
    void setContextKey(CONTEXT_KEYS.signedIn, session.state === 'signedIn');
    void setContextKey(CONTEXT_KEYS.platform, platformFor(session.endpoint)?.id ?? 'custom');
  };
  context.subscriptions.push(
    status,
    session.onDidChangeSignIn(showSignIn),
    session.onDidChange(() => void status.update()),
    session.onDidChangeUsername(() => void status.update()),
    vscode.commands.registerCommand(COMMANDS.setToken, () => setToken(services)),
    vscode.commands.registerCommand(COMMANDS.signOut, () => signOut(services)),
    vscode.commands.registerCommand(COMMANDS.selectPlatform, () => selectPlatform(services)),
    // An optional path (tests, other extensions); menus and links pass none, so the official file is read.
    vscode.commands.registerCommand(COMMANDS.importCredentials, (file?: unknown) => importCredentials(services, typeof file === 'string' ? file : undefined)),
    vscode.commands.registerCommand(COMMANDS.openTokenPage, () => openTokenPage(services)),
    vscode.commands.registerCommand(COMMANDS.showLog, () => log.show()),
    vscode.commands.registerCommand(COMMANDS.accountMenu, accountMenu),
  );
  void session.reload(false).then(() => status.update());
}
