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

  it('the sign-in offer\'s ask finds no session of its endpoint, even one made while it was on its way, and then tells VS Code of it again', async () => {
    const { services, auth } = await activateProduct();
    const emu = emulator();
    await waitFor(() => services.session.state === 'signedIn', 'the session to read its token');
    // Signed in already: what a sign-in made while the ask travels looks like. Found, VS Code would file a
    // "Grant access" request for the product itself that stays in the Accounts menu (an e2e run saw it).
    const added: string[] = [];
    const listener = auth.provider.onDidChangeSessions((e) => added.push(...(e.added ?? []).map((s) => s.id)));
    try {
      const offered = auth.provider.offerSignIn(emu.baseUrl);
      assert.deepStrictEqual(await auth.provider.getSessions([emu.baseUrl]), [], 'the ask finds none');
      await offered;
      assert.deepStrictEqual(added, [emu.baseUrl], 'the session told again, so VS Code drops the sign-in entry the ask left');
      assert.deepStrictEqual((await auth.provider.getSessions([emu.baseUrl])).map((s) => s.id), [emu.baseUrl], 'listed again once the ask is back');
    } finally {
      listener.dispose();
    }
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

  it('scopes from other extensions are checked and normalised; the token prompt opens only for an endpoint the user chose', async () => {
    const { auth } = await activateProduct();
    const emu = emulator();
    const spelled = `${emu.baseUrl.replace('http://', 'HTTP://')}/`;
    assert.deepStrictEqual((await auth.provider.getSessions([spelled])).map((s) => s.id), [emu.baseUrl], 'another spelling of the endpoint is the same session');
    await assert.rejects(auth.provider.getSessions(['https://user:secret@cgc-api.sbgenomics.com/v2']), /does not name a Seven Bridges API endpoint: .*user name or password/);
    await assert.rejects(auth.provider.createSession(['http://cgc-api.sbgenomics.com/v2']), /Plain http is refused for cgc-api\.sbgenomics\.com/);
    await assert.rejects(auth.provider.createSession(['https://sbgenomics.attacker.example/v2']), /does not sign in to https:\/\/sbgenomics\.attacker\.example\/v2 on request/);
  });

  it('removeSession fails, and the session stays, when the token cannot be deleted', async () => {
    const { services, auth } = await activateProduct();
    const emu = emulator();
    const endpoint = emu.baseUrl.replace('127.0.0.1', 'localhost');
    const removed: string[] = [];
    const listener = auth.provider.onDidChangeSessions((e) => removed.push(...(e.removed ?? []).map((s) => s.id)));
    const deleteToken = services.session.deleteToken;
    try {
      await services.session.storeToken(endpoint, emu.token);
      await waitFor(async () => (await auth.provider.getSessions([endpoint])).length === 1, 'the stored token to be a session');
      services.session.deleteToken = () => Promise.reject(new Error('the keyring is locked'));
      await assert.rejects(auth.provider.removeSession(endpoint), /Not signed out of .*its token could not be deleted/);
      assert.strictEqual((await services.session.tokenFor(endpoint))?.token, emu.token, 'the token is still stored');
      assert.deepStrictEqual((await auth.provider.getSessions([endpoint])).map((s) => s.id), [endpoint], 'still listed');
      assert.deepStrictEqual(removed, [], 'no removed event');
    } finally {
      services.session.deleteToken = deleteToken;
      listener.dispose();
      await services.session.deleteToken(endpoint);
    }
  });

  it('an offline check keeps the session of an unchanged token; a token never checked while offline is not listed yet, and nothing is removed', async () => {
    const { services, auth } = await activateProduct();
    const emu = emulator();
    const other = emu.baseUrl.replace('127.0.0.1', 'localhost');
    // Not in use, so only the providers ask about its token (the Session's own retried checks would outlast the test).
    const unchecked = emu.baseUrl.replace('/v2', '/offline/v2');
    const label = `${emu.username} (${new URL(emu.baseUrl).host})`;
    await waitFor(() => services.session.username === emu.username, 'the username of the sign-in in use');
    // A provider that has only seen the sign-in in use, as after a window reload.
    const Provider = auth.provider.constructor as new (s: typeof services) => typeof auth.provider;
    const fresh = new Provider(services);
    const events: vscode.AuthenticationProviderAuthenticationSessionsChangeEvent[] = [];
    const listener = fresh.onDidChangeSessions((e) => events.push(e));
    const settings = vscode.workspace.getConfiguration('sevenbridges');
    try {
      assert.deepStrictEqual((await fresh.getSessions([])).map((s) => s.account.label), [label]);
      emu.faults.dropRate = 1;
      // The views move to another endpoint: the emulator's session is now checked with GET /v2/user, which fails.
      await settings.update('apiEndpoint', other, vscode.ConfigurationTarget.Global);
      await waitFor(() => services.session.endpoint === other, 'the other endpoint in use');
      assert.deepStrictEqual((await fresh.getSessions([])).map((s) => s.account.label), [label], 'still listed under its user while offline');
      // A token stored while offline: its user is unknown, so it is not listed yet; nothing is removed.
      await services.session.storeToken(unchecked, emu.token);
      await waitFor(
        () => services.context.globalState.get<string[]>('sevenbridges.auth.endpointsWithTokens', []).includes(unchecked),
        'the custom endpoint to be remembered',
      );
      assert.deepStrictEqual((await fresh.getSessions([])).map((s) => s.id), [emu.baseUrl]);
      assert.deepStrictEqual(events.flatMap((e) => (e.removed ?? []).map((s) => s.id)), [], 'no removed event for a token still stored');
    } finally {
      emu.faults.dropRate = 0;
      listener.dispose();
      fresh.dispose();
      await services.session.deleteToken(unchecked);
      await settings.update('apiEndpoint', emu.baseUrl, vscode.ConfigurationTarget.Global);
      await waitFor(() => services.session.state === 'signedIn', 'signed in again to the emulator');
    }
  });

  it('a token the platform rejects is not listed', async () => {
    const { services, auth } = await activateProduct();
    const emu = emulator();
    const other = emu.baseUrl.replace('127.0.0.1', 'localhost');
    try {
      await services.session.storeToken(other, 'a'.repeat(32));
      assert.deepStrictEqual((await auth.provider.getSessions([])).map((s) => s.id), [emu.baseUrl]);
    } finally {
      await services.session.deleteToken(other);
    }
  });
});
