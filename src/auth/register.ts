import * as vscode from 'vscode';
import type { Services } from '../services';
import { accountMenu, AccountStatus } from './accountStatus';
import { importCredentials, openTokenPage, selectPlatform, setToken, signOut } from './commands';
import { AUTH_PROVIDER_ID, AUTH_PROVIDER_LABEL, SevenBridgesAuthProvider } from './provider';

/** Sign-in: token, platform, credentials file, the signed-in indicator, the Accounts menu's provider. */
export function registerAuth(services: Services): { provider: SevenBridgesAuthProvider } {
  const { context, session, log } = services;
  const status = new AccountStatus(services);
  const provider = new SevenBridgesAuthProvider(services);
  context.subscriptions.push(
    status,
    provider,
    // Several accounts: one per platform with a token.
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, AUTH_PROVIDER_LABEL, provider, { supportsMultipleAccounts: true }),
    session.onDidChange(() => void status.update()),
    session.onDidChangeUsername(() => void status.update()),
    vscode.commands.registerCommand('sevenbridges.setToken', () => setToken(services)),
    vscode.commands.registerCommand('sevenbridges.signOut', () => signOut(services)),
    vscode.commands.registerCommand('sevenbridges.selectPlatform', () => selectPlatform(services)),
    // An optional path (tests, other extensions); menus and links pass none, so the official file is read.
    vscode.commands.registerCommand('sevenbridges.importCredentials', (file?: unknown) => importCredentials(services, typeof file === 'string' ? file : undefined)),
    vscode.commands.registerCommand('sevenbridges.openTokenPage', () => openTokenPage(services)),
    vscode.commands.registerCommand('sevenbridges.showLog', () => log.show()),
    vscode.commands.registerCommand('sevenbridges.accountMenu', accountMenu),
  );
  void session.reload(false).then(() => status.update());
  return { provider };
}
