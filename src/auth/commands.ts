import * as fs from 'fs/promises';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { checkEndpoint, endpointLabel, PLATFORMS, platformFor } from '../api/endpoint';
import type { Services } from '../services';
import { requestLogger } from '../ui/requestLog';
import { parseCredentialsFile, usableProfiles } from './credentialsFile';
import { updateUserSetting } from '../ui/settings';
import { checkToken, checkTokenShape } from './tokenCheck';
import { commandTitles, COMMANDS } from '../keys/commands';
import { plain, type Command } from '../ui/commands';
import { accountMenu } from './accountStatus';

export const CREDENTIALS_FILE = path.join(os.homedir(), '.sevenbridges', 'credentials');

/** Every command of the sign-in: they act on nothing in particular. */
export function authCommands(services: Services): Command[] {
  return [
    plain('setToken', () => setToken(services)),
    plain('signOut', () => signOut(services)),
    plain('selectPlatform', () => selectPlatform(services)),
    // An optional path (tests, other extensions); menus and links pass none, so the official file is read.
    plain('importCredentials', (file) => importCredentials(services, typeof file === 'string' ? file : undefined)),
    plain('openTokenPage', () => openTokenPage(services)),
    plain('showLog', () => services.log.show()),
    plain('accountMenu', accountMenu),
  ];
}

/**
 * "Set Authentication Token": a password box; the token is checked with GET /v2/user before it is stored for
 * `endpoint` (the one in use unless the Accounts menu's sign-in chose another). The one sign-in: the palette, the
 * welcome views and the authentication provider's createSession all come here. Resolves to the username, or
 * undefined when the box was closed.
 */
export async function setToken(services: Services, endpoint = services.session.endpoint): Promise<string | undefined> {
  const { session, log } = services;
  const label = endpointLabel(endpoint);
  const box = vscode.window.createInputBox();
  box.title = vscode.l10n.t('Seven Bridges: Authentication Token for {0}', label);
  box.prompt = vscode.l10n.t("Paste a developer token for {0}. It is kept in VS Code's secret storage, never in settings.", endpoint);
  box.placeholder = vscode.l10n.t('Authentication token');
  box.password = true;
  box.ignoreFocusOut = true;
  box.buttons = [{ iconPath: new vscode.ThemeIcon('link-external'), tooltip: vscode.l10n.t('Open the developer page to make a token') }];

  return new Promise<string | undefined>((resolve) => {
    let done = false;
    const finish = (username: string | undefined) => {
      if (done) return;
      done = true;
      resolve(username);
      box.dispose();
    };
    box.onDidTriggerButton(() => void vscode.commands.executeCommand(COMMANDS.openTokenPage));
    box.onDidChangeValue((value) => {
      box.validationMessage = value ? checkTokenShape(value.trim()) : undefined;
    });
    box.onDidAccept(async () => {
      const token = box.value.trim();
      const shape = checkTokenShape(token);
      if (shape) {
        box.validationMessage = shape;
        return;
      }
      box.busy = true;
      box.enabled = false;
      box.validationMessage = undefined;
      const check = await checkToken(endpoint, token, requestLogger(log));
      box.busy = false;
      box.enabled = true;
      if (!check.ok) {
        box.validationMessage = check.reason;
        log.warn(`Token not stored: ${check.reason}`);
        return;
      }
      try {
        await session.storeToken(endpoint, token);
      } catch (error) {
        box.validationMessage = vscode.l10n.t("The token is valid but could not be saved in VS Code's secret storage ({0}). On Linux, check that a keyring is available.", errorText(error));
        return;
      }
      if (session.endpoint === endpoint) session.username = check.user.username;
      log.info(`Signed in as ${check.user.username} on ${endpoint}`);
      finish(check.user.username);
      void vscode.window.showInformationMessage(vscode.l10n.t('Signed in as {0} on {1}.', check.user.username, label));
    });
    box.onDidHide(() => finish(undefined));
    box.show();
  });
}

/**
 * Deletes the stored token of `endpoint` (the one in use unless the Accounts menu's Sign Out named another).
 * Resolves to false when the token could not be deleted (the error is shown), true otherwise.
 */
export async function signOut(services: Services, endpoint = services.session.endpoint): Promise<boolean> {
  const { session, log } = services;
  try {
    await session.deleteToken(endpoint);
  } catch (error) {
    void vscode.window.showErrorMessage(vscode.l10n.t("Could not delete the token from VS Code's secret storage ({0}).", errorText(error)));
    return false;
  }
  log.info(`Signed out of ${endpoint}`);
  if ((await session.tokenFor(endpoint))?.fromEnvironment) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        "The stored token for {0} is deleted, but SB_AUTH_TOKEN is set in VS Code's environment and is still used. Unset it and restart VS Code to sign out completely.",
        endpointLabel(endpoint),
      ),
    );
  } else {
    void vscode.window.showInformationMessage(vscode.l10n.t('Signed out of {0}.', endpointLabel(endpoint)));
  }
  return true;
}

interface PlatformPick extends vscode.QuickPickItem {
  apiBase?: string;
}

/** "Select Platform": the known platforms, or a custom endpoint checked as it is typed. */
export async function selectPlatform(services: Services): Promise<void> {
  const endpoint = await pickEndpoint(services.session.endpoint, vscode.l10n.t('Seven Bridges: Select Platform'));
  if (endpoint) await useEndpoint(services, endpoint);
}

/** The known platforms (the one in use marked), or a custom endpoint checked as it is typed; undefined when dismissed. */
export async function pickEndpoint(current: string, title: string): Promise<string | undefined> {
  const inUse = `$(check) ${vscode.l10n.t({ message: 'In use', comment: ['The platform now used'] })}`;
  const items: PlatformPick[] = PLATFORMS.map((p) => ({
    label: p.label,
    description: p.apiBase,
    detail: p.apiBase === current ? inUse : undefined,
    apiBase: p.apiBase,
  }));
  const custom = !platformFor(current);
  items.push({ label: vscode.l10n.t('Custom endpoint…'), description: custom ? current : undefined, detail: custom ? inUse : vscode.l10n.t('Any other API base URL (https; http only for loopback)') });
  const pick = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('In use: {0}', endpointLabel(current)), matchOnDescription: true });
  if (!pick) return undefined;
  let endpoint = pick.apiBase;
  if (!endpoint) {
    const typed = await vscode.window.showInputBox({
      title: vscode.l10n.t('Seven Bridges: Custom API Endpoint'),
      prompt: vscode.l10n.t('The API base URL, e.g. https://api.sbgenomics.com/v2'),
      value: custom ? current : 'https://',
      ignoreFocusOut: true,
      validateInput: (value) => {
        const check = checkEndpoint(value);
        return check.ok ? undefined : check.reason;
      },
    });
    if (typed === undefined) return undefined;
    const check = checkEndpoint(typed);
    if (!check.ok) return undefined;
    endpoint = check.endpoint;
  }
  return endpoint;
}

/** Makes `endpoint` the one in use (the setting), offering to set a token when it has none. */
export async function useEndpoint(services: Services, endpoint: string): Promise<void> {
  await updateUserSetting('apiEndpoint', endpoint);
  await services.session.reload();
  services.log.info(`Platform: ${endpoint}`);
  if (services.session.state === 'signedOut') {
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t('Using {0}. Set a token for it to sign in.', endpointLabel(endpoint)), commandTitles().setToken);
    if (choice) await setToken(services);
  } else {
    void vscode.window.showInformationMessage(vscode.l10n.t('Using {0}.', endpointLabel(endpoint)));
  }
}

/** "Import Token from Credentials File": a profile of ~/.sevenbridges/credentials sets both endpoint and token. */
export async function importCredentials(services: Services, file = CREDENTIALS_FILE): Promise<void> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('No credentials file at {0}. The official clients keep one [profile] section per platform there, with api_endpoint and auth_token.', file),
    );
    return;
  }
  const parsed = parseCredentialsFile(text);
  for (const problem of parsed.problems) services.log.warn(`${file}:${problem.line}: ${problem.message}`);
  const profiles = usableProfiles(parsed);
  if (!profiles.length) {
    void vscode.window.showWarningMessage(vscode.l10n.t('{0} has no profile with both api_endpoint and auth_token.', file), commandTitles().showLog).then((c) => c && services.log.show());
    return;
  }
  const pick = await vscode.window.showQuickPick(
    profiles.map((p) => ({ label: p.name, description: endpointLabel(p.endpoint), detail: p.endpoint, profile: p })),
    { title: vscode.l10n.t('Seven Bridges: Import Token from Credentials File'), placeHolder: vscode.l10n.t('Choose a profile') },
  );
  if (!pick) return;
  const endpointCheck = checkEndpoint(pick.profile.endpoint);
  if (!endpointCheck.ok) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Profile "{0}": {1}', pick.label, endpointCheck.reason));
    return;
  }
  const endpoint = endpointCheck.endpoint;
  const tokenCheck = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking the token of profile "{0}"…', pick.label) },
    () => checkToken(endpoint, pick.profile.token, requestLogger(services.log)),
  );
  if (!tokenCheck.ok) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Profile "{0}" was not imported: {1}', pick.label, tokenCheck.reason));
    return;
  }
  try {
    await services.session.storeToken(endpoint, pick.profile.token);
  } catch (error) {
    void vscode.window.showErrorMessage(vscode.l10n.t("Profile \"{0}\" was not imported: the token could not be saved in VS Code's secret storage ({1}).", pick.label, errorText(error)));
    return;
  }
  await updateUserSetting('apiEndpoint', endpoint);
  await services.session.reload();
  services.session.username = tokenCheck.user.username;
  void vscode.window.showInformationMessage(vscode.l10n.t('Signed in as {0} on {1} (profile "{2}").', tokenCheck.user.username, endpointLabel(endpoint), pick.label));
}

export async function openTokenPage(services: Services): Promise<void> {
  const endpoint = services.session.endpoint;
  const platform = platformFor(endpoint);
  if (platform) {
    await vscode.env.openExternal(vscode.Uri.parse(platform.tokenPage));
    return;
  }
  void vscode.window.showInformationMessage(vscode.l10n.t('{0} is a custom endpoint: open its web front end and look for the developer token page.', endpointLabel(endpoint)));
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
