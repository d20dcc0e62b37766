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
}

/** Writes a helper extension into `extensionsDir` and registers it in extensions.json when one exists. */
export function installHelperExtension(extensionsDir: string, ext: HelperExtension): string {
  const version = '0.0.1';
  const [publisher, name] = ext.id.split('.');
  const folderName = `${ext.id}-${version}`;
  const folder = path.join(extensionsDir, folderName);
  fs.mkdirSync(folder, { recursive: true });
  const manifest = { name, displayName: ext.displayName, publisher, version, engines: { vscode: '^1.100.0' }, activationEvents: ext.activationEvents, main: './extension.js', extensionKind: ['workspace'] };
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
