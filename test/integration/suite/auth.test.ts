/**
 * Sign-in in a real extension host: the environment sign-in, the credentials-file import, sign-out and the
 * platform switch. Every test leaves the host as it found it: signed in to the emulator through SB_AUTH_TOKEN.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { activateProduct, emulator, waitFor } from '../helpers';

const ACCEPT = 'workbench.action.acceptSelectedQuickOpenItem';

describe('sign-in', () => {
  const endpointSetting = () => vscode.workspace.getConfiguration('sevenbridges').get<string>('apiEndpoint');

  it('starts signed in from SB_API_ENDPOINT / SB_AUTH_TOKEN and learns the username from GET /v2/user', async () => {
    const { services } = await activateProduct();
    // The first read of the secret storage is asynchronous: the views wait for it the same way.
    await waitFor(() => services.session.state === 'signedIn', 'the session to read its token');
    assert.strictEqual(await services.session.tokenFromEnvironment(), true);
    await waitFor(() => services.session.username === emulator().username, 'the username from GET /v2/user');
  });

  it('imports a profile of the credentials file: the token is checked, stored and used', async () => {
    const { services } = await activateProduct();
    const emu = emulator();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-credentials-')), 'credentials');
    fs.writeFileSync(file, `# the official clients' file\n[no-token]\napi_endpoint = ${emu.baseUrl}\n\n[emulator]\napi_endpoint = ${emu.baseUrl}/\nauth_token = ${emu.token}\n`);
    const userRequests = () => emu.stats.requests;
    const before = userRequests();
    let imported = false;
    const done = vscode.commands.executeCommand('sevenbridges.importCredentials', file).then(() => (imported = true));
    // The pick offers only the usable profile; accept it as a person would with Enter, once it shows.
    await waitFor(async () => imported || (await vscode.commands.executeCommand(ACCEPT), imported), 'the profile to be picked and imported');
    await done;
    assert.strictEqual(await services.session.tokenFromEnvironment(), false, 'the token now comes from secret storage');
    assert.strictEqual(services.session.state, 'signedIn');
    assert.strictEqual(services.session.username, emu.username);
    assert.strictEqual(endpointSetting(), emu.baseUrl, 'the endpoint is stored normalised (no trailing slash)');
    assert.ok(userRequests() > before, 'the token was checked with the platform');
    const settings = JSON.stringify(vscode.workspace.getConfiguration('sevenbridges'));
    assert.ok(!settings.includes(emu.token), 'the token is in no setting');
  });

  it('Sign Out deletes the stored token; the environment token still applies', async () => {
    const { services } = await activateProduct();
    await vscode.commands.executeCommand('sevenbridges.signOut');
    assert.strictEqual(await services.session.tokenFromEnvironment(), true);
    assert.strictEqual(services.session.state, 'signedIn');
  });

  it('Select Platform switches the endpoint; the token of another endpoint is not sent there', async () => {
    const { services } = await activateProduct();
    const emu = emulator();
    // The first item is Seven Bridges (AWS US). The command then offers to set a token: leave that message open.
    void vscode.commands.executeCommand('sevenbridges.selectPlatform');
    try {
      // Accepted (Enter) once the pick shows.
      await waitFor(async () => endpointSetting() === 'https://api.sbgenomics.com/v2' || (await vscode.commands.executeCommand(ACCEPT), false), 'the endpoint setting');
      await waitFor(() => services.session.state === 'signedOut', 'signed out on the other platform');
      assert.strictEqual(await services.session.credentials(), undefined, 'SB_AUTH_TOKEN belongs to SB_API_ENDPOINT only');
      const outcome = await services.client.user().then(
        () => 'answered',
        (error: { kind?: string }) => error.kind,
      );
      assert.strictEqual(outcome, 'signedOut', 'nothing is sent without a token for this endpoint');
    } finally {
      await vscode.workspace.getConfiguration('sevenbridges').update('apiEndpoint', emu.baseUrl, vscode.ConfigurationTarget.Global);
      await waitFor(() => services.session.state === 'signedIn', 'signed in again to the emulator');
    }
  });
});
