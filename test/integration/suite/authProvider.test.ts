/**
 * The authentication provider `sevenbridges` in a real extension host: its session list, sign-out through
 * removeSession, and another extension (the harness installs `sbg-test.sevenbridges-session-consumer`) that gets no
 * session without the user's consent. (Granting it, through VS Code's dialog, is in the e2e accounts spec.)
 * Every test leaves the host signed in to the emulator through SB_AUTH_TOKEN, as it found it.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateProduct, emulator, waitFor } from '../helpers';

const PROVIDER = 'sevenbridges';
const CONSUMER_GET_SESSION = 'sbgTestConsumer.getSession';

describe('authentication provider', () => {
  it('lists the environment sign-in as a session named after its user and platform', async () => {
    const { services, auth } = await activateProduct();
    const emu = emulator();
    await waitFor(() => services.session.state === 'signedIn', 'the session to read its token');
    const sessions = await auth.provider.getSessions([]);
    const label = `${emu.username} (${new URL(emu.baseUrl).host})`;
    assert.deepStrictEqual(
      sessions.map((s) => ({ id: s.id, label: s.account.label, scopes: s.scopes })),
      [{ id: emu.baseUrl, label, scopes: [emu.baseUrl] }],
    );
    assert.ok(sessions[0].accessToken === emu.token, 'the session carries the token in use');
    assert.deepStrictEqual(await auth.provider.getSessions(['https://cgc-api.sbgenomics.com/v2']), [], 'a scope naming another platform narrows the list');

    // What VS Code itself shows in the Accounts menu.
    const accounts = await waitFor(async () => {
      const listed = await vscode.authentication.getAccounts(PROVIDER);
      return listed.some((a) => a.label === label) ? listed : undefined;
    }, 'VS Code to list the account');
    assert.deepStrictEqual(accounts.map((a) => a.label), [label]);
  });

  it('another extension asking silently gets no session until the user allows it', async () => {
    await activateProduct();
    const consumer = vscode.extensions.getExtension('sbg-test.sevenbridges-session-consumer');
    assert.ok(consumer, 'the harness installs the consumer extension');
    const got = await vscode.commands.executeCommand<unknown>(CONSUMER_GET_SESSION, { silent: true });
    assert.strictEqual(got, null, 'no session without consent');
    // This runner is another extension too: same answer, and VS Code lists the account while holding back its token.
    assert.strictEqual(await vscode.authentication.getSession(PROVIDER, [], { silent: true }), undefined);
  });

  it('a token stored in this window is a session at once; Sign Out from the Accounts menu (removeSession) signs the extension out', async () => {
    const { services, auth } = await activateProduct();
    const emu = emulator();
    // The same emulator under another name: SB_AUTH_TOKEN does not belong to it, so only a stored token signs in there.
    const endpoint = emu.baseUrl.replace('127.0.0.1', 'localhost');
    const events: string[] = [];
    const listener = vscode.authentication.onDidChangeSessions((e) => e.provider.id === PROVIDER && events.push('changed'));
    const providerEvents: vscode.AuthenticationProviderAuthenticationSessionsChangeEvent[] = [];
    const providerListener = auth.provider.onDidChangeSessions((e) => providerEvents.push(e));
    const settings = vscode.workspace.getConfiguration('sevenbridges');
    try {
      await settings.update('apiEndpoint', endpoint, vscode.ConfigurationTarget.Global);
      await waitFor(() => services.session.endpoint === endpoint && services.session.state === 'signedOut', 'signed out on the other name');
      await services.session.storeToken(endpoint, emu.token);
      await waitFor(() => providerEvents.some((e) => e.added?.some((s) => s.id === endpoint)), 'the provider to announce the new session');
      const label = `${emu.username} (${new URL(endpoint).host})`;
      const listed = await auth.provider.getSessions([endpoint]);
      assert.deepStrictEqual(listed.map((s) => s.account.label), [label]);
      await waitFor(() => events.length > 0, 'VS Code to tell extensions that the sessions changed');

      await auth.provider.removeSession(endpoint);
      assert.strictEqual(services.session.state, 'signedOut', 'the extension is signed out');
      assert.strictEqual(await services.session.tokenFor(endpoint), undefined, 'the stored token is deleted');
      assert.ok(providerEvents.some((e) => e.removed?.some((s) => s.id === endpoint)), 'the removal is announced');
      assert.deepStrictEqual(await auth.provider.getSessions([endpoint]), []);
      const accounts = await vscode.authentication.getAccounts(PROVIDER);
      assert.ok(!accounts.some((a) => a.label === label), 'the Accounts menu no longer lists it');
    } finally {
      listener.dispose();
      providerListener.dispose();
      await services.session.deleteToken(endpoint);
      await settings.update('apiEndpoint', emu.baseUrl, vscode.ConfigurationTarget.Global);
      await waitFor(() => services.session.state === 'signedIn', 'signed in again to the emulator');
    }
  });

  it('Sign Out of the environment sign-in keeps it (SB_AUTH_TOKEN cannot be unset from here) and says so', async () => {
    const { services, auth } = await activateProduct();
    const emu = emulator();
    await auth.provider.removeSession(emu.baseUrl);
    assert.strictEqual(services.session.state, 'signedIn');
    assert.deepStrictEqual((await auth.provider.getSessions([])).map((s) => s.id), [emu.baseUrl]);
  });
});
