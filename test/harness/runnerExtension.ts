/**
 * Small helper extensions installed next to the product. A built workbench ignores
 * extensionDevelopmentPath/extensionTestsPath, so the integration suite gets into the real host as the
 * test-runner extension (activated on `*`, its main requires the compiled runner in
 * out/test/integration/runner); the demo uses one that opens the Seven Bridges view at startup.
 */
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from './paths';

export const RUNNER_ID = 'sbg-test.sevenbridges-integration-runner';

export interface HelperExtension {
  /** `publisher.name` */
  readonly id: string;
  readonly displayName: string;
  readonly activationEvents: string[];
  /** Source of its extension.js. */
  readonly main: string;
  /** Its manifest's `contributes` (commands for the palette). */
  readonly contributes?: Record<string, unknown>;
}

/** Writes a helper extension into `extensionsDir` and registers it in extensions.json when one exists. */
export function installHelperExtension(extensionsDir: string, ext: HelperExtension): string {
  const version = '0.0.1';
  const [publisher, name] = ext.id.split('.');
  const folderName = `${ext.id}-${version}`;
  const folder = path.join(extensionsDir, folderName);
  fs.mkdirSync(folder, { recursive: true });
  const manifest = { name, displayName: ext.displayName, publisher, version, engines: { vscode: '^1.100.0' }, activationEvents: ext.activationEvents, main: './extension.js', extensionKind: ['workspace'], contributes: ext.contributes };
  fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify(manifest, null, 2));
  fs.writeFileSync(path.join(folder, 'extension.js'), ext.main);
  // Once --install-extension has written extensions.json, only the folders listed there are loaded.
  const registry = path.join(extensionsDir, 'extensions.json');
  if (fs.existsSync(registry)) {
    const entries = JSON.parse(fs.readFileSync(registry, 'utf8')) as { identifier: { id: string } }[];
    const kept = entries.filter((e) => e.identifier.id !== ext.id);
    kept.push({
      identifier: { id: ext.id },
      version,
      location: { $mid: 1, fsPath: folder, external: `file://${folder}`, path: folder, scheme: 'file' },
      relativeLocation: folderName,
      metadata: { installedTimestamp: Date.now(), source: 'resource' },
    } as (typeof entries)[number]);
    fs.writeFileSync(registry, JSON.stringify(kept));
  }
  return folder;
}

/** The integration suite's runner (see test/integration/runner/extension.ts). */
export function installRunnerExtension(extensionsDir: string): string {
  const entry = path.join(repoRoot, 'out', 'test', 'integration', 'runner', 'extension.js');
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: compile first (tsc -p .)`);
  return installHelperExtension(extensionsDir, {
    id: RUNNER_ID,
    displayName: 'Seven Bridges integration test runner',
    activationEvents: ['*'],
    main: `module.exports = require(${JSON.stringify(entry)});\n`,
  });
}

/** Opens a view container once the workbench has started (the demo opens Seven Bridges). */
export function installOpenViewExtension(extensionsDir: string, containerId = 'sevenbridges'): string {
  return installHelperExtension(extensionsDir, {
    id: 'sbg-test.open-view-on-startup',
    displayName: 'Open the Seven Bridges view on startup (demo)',
    activationEvents: ['onStartupFinished'],
    main: `exports.activate = () => { require('vscode').commands.executeCommand(${JSON.stringify(`workbench.view.extension.${containerId}`)}); };\nexports.deactivate = () => {};\n`,
  });
}

export const CONSUMER_ID = 'sbg-test.sevenbridges-session-consumer';
export const CONSUMER_NAME = 'Seven Bridges Session Consumer (test)';
/** Its command: asks VS Code for a Seven Bridges session with the options given (default: silently). */
export const CONSUMER_GET_SESSION = 'sbgTestConsumer.getSession';
/** Its palette command: asks with createIfNone (VS Code's consent dialog first), then says what it got. */
export const CONSUMER_ASK_TITLE = 'Session Consumer: Ask for a Seven Bridges Session';

/**
 * Another extension that wants the Seven Bridges account: it gets a session only through VS Code's authentication
 * API, so only once the user has allowed it. Tests read what it got (its command returns the session or null).
 */
export function installConsumerExtension(extensionsDir: string): string {
  const main = `const vscode = require('vscode');
const PROVIDER = 'sevenbridges';
async function getSession(options) {
  const session = await vscode.authentication.getSession(PROVIDER, [], options || { silent: true });
  return session ? { id: session.id, account: session.account, scopes: session.scopes, accessToken: session.accessToken } : null;
}
exports.activate = (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand(${JSON.stringify(CONSUMER_GET_SESSION)}, (options) => getSession(options)),
    vscode.commands.registerCommand('sbgTestConsumer.ask', async () => {
      try {
        const session = await getSession({ createIfNone: true });
        const again = await getSession({ silent: true });
        vscode.window.showInformationMessage(session ? 'Session Consumer got the session of ' + session.account.label + (again ? ', and gets it silently now.' : ', but not silently.') : 'Session Consumer got no session.');
      } catch (error) {
        vscode.window.showWarningMessage('Session Consumer got no session: ' + (error && error.message));
      }
    }),
  );
};
exports.deactivate = () => {};
`;
  return installHelperExtension(extensionsDir, {
    id: CONSUMER_ID,
    displayName: CONSUMER_NAME,
    activationEvents: ['onStartupFinished', `onCommand:${CONSUMER_GET_SESSION}`, 'onCommand:sbgTestConsumer.ask'],
    main,
    contributes: { commands: [{ command: 'sbgTestConsumer.ask', title: CONSUMER_ASK_TITLE }] },
  });
}
