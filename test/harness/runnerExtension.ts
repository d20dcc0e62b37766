/**
 * The test-runner extension installed next to the product: a folder with a manifest (activated on `*`)
 * whose main requires the compiled runner in out/test/integration/runner. A built workbench ignores
 * extensionDevelopmentPath/extensionTestsPath, so this is how a suite gets into the real host.
 */
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from './paths';

export const RUNNER_ID = 'sbg-test.sevenbridges-integration-runner';
const VERSION = '0.0.1';

/** Writes the runner extension into `extensionsDir` and registers it in extensions.json when one exists. */
export function installRunnerExtension(extensionsDir: string): string {
  const entry = path.join(repoRoot, 'out', 'test', 'integration', 'runner', 'extension.js');
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: compile first (tsc -p .)`);
  const folderName = `${RUNNER_ID}-${VERSION}`;
  const folder = path.join(extensionsDir, folderName);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(
    path.join(folder, 'package.json'),
    JSON.stringify(
      {
        name: 'sevenbridges-integration-runner',
        displayName: 'Seven Bridges integration test runner',
        publisher: 'sbg-test',
        version: VERSION,
        engines: { vscode: '^1.100.0' },
        activationEvents: ['*'],
        main: './extension.js',
        extensionKind: ['workspace'],
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(path.join(folder, 'extension.js'), `module.exports = require(${JSON.stringify(entry)});\n`);
  // Once --install-extension has written extensions.json, only the folders listed there are loaded.
  const registry = path.join(extensionsDir, 'extensions.json');
  if (fs.existsSync(registry)) {
    const entries = JSON.parse(fs.readFileSync(registry, 'utf8')) as { identifier: { id: string } }[];
    const kept = entries.filter((e) => e.identifier.id !== RUNNER_ID);
    kept.push({
      identifier: { id: RUNNER_ID },
      version: VERSION,
      location: { $mid: 1, fsPath: folder, external: `file://${folder}`, path: folder, scheme: 'file' },
      relativeLocation: folderName,
      metadata: { installedTimestamp: Date.now(), source: 'resource' },
    } as (typeof entries)[number]);
    fs.writeFileSync(registry, JSON.stringify(kept));
  }
  return folder;
}
