import * as vscode from 'vscode';
import type { Services } from '../services';
import { AccountStatus } from './accountStatus';
import type { OnFirstUse } from '../ui/commands';
import { CONTEXT_KEYS } from '../keys/context';
import { platformFor } from '../api/endpoint';
import { setContextKey } from '../ui/whenContext';
import { AUTH_PROVIDER_ID, AUTH_PROVIDER_LABEL, SevenBridgesAuthProvider, type AuthOnFirstUse } from './provider';

/** Sign-in: token, platform, credentials file, the signed-in indicator, the Accounts menu's provider. */
export function registerAuth(services: Services, later: OnFirstUse<AuthOnFirstUse>): { provider: SevenBridgesAuthProvider } {
  const { context, session } = services;
  const status = new AccountStatus(services);
  // The when-clauses' view of the sign-in: the welcome views, the title buttons, the platform's token page.
  const showSignIn = () => {
    void setContextKey(CONTEXT_KEYS.signedIn, session.state === 'signedIn');
    void setContextKey(CONTEXT_KEYS.platform, platformFor(session.endpoint)?.id ?? 'custom');
  };
  const provider = new SevenBridgesAuthProvider(services, later.load);
  const offer = signInOffer(services, provider);
  context.subscriptions.push(
    status,
    session.onDidChangeSignIn(showSignIn),
    provider,
    // Several accounts: one per platform with a token.
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, AUTH_PROVIDER_LABEL, provider, { supportsMultipleAccounts: true }),
    session.onDidChange(() => void status.update()),
    session.onDidChange(() => offer()),
    session.onDidChangeUsername(() => void status.update()),
  );
  later.commands((f) => f.authCommands(services));
  void session.reload(false).then(() => {
    void status.update();
    offer();
  });
  return { provider };
}

/**
 * Signed out everywhere: asks VS Code, once per sign-out, for a session of the platform in use without creating one,
 * so the Accounts menu offers "Sign in with Seven Bridges to use Seven Bridges". VS Code drops the entry once a
 * session with the same scopes arrives, however it was made (its match of an empty scope list never succeeds, hence
 * the endpoint as the scope). Once only: a second ask still on its way when the user signs in through the first would
 * leave a second sign-in entry.
 */
function signInOffer(services: Services, provider: SevenBridgesAuthProvider): () => void {
  let asked: { endpoint: string } | undefined;
  return () => {
    const { state, endpoint } = services.session;
    if (state === 'signedIn' || asked?.endpoint !== endpoint) asked = undefined;
    if (state === 'signedIn' || asked) return;
    const ask = (asked = { endpoint });
    const forget = () => void (asked === ask && (asked = undefined));
    void askForSession(services, provider).then((made) => made || forget(), forget);
  };
}

/** The ask itself, unless a session is known here or to VS Code; whether it was made. */
async function askForSession(services: Services, provider: SevenBridgesAuthProvider): Promise<boolean> {
  if (services.session.state !== 'signedOut' || (await provider.refresh()).length) return false;
  // VS Code's own list too: while it still holds a session, the same call would ask to grant access to it instead.
  if ((await vscode.authentication.getAccounts(AUTH_PROVIDER_ID)).length || services.session.state !== 'signedOut') return false;
  services.log.info('Signed out: the Accounts menu offers to sign in');
  await provider.offerSignIn(services.session.endpoint);
  return true;
}
