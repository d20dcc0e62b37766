/**
 * The same integration suite under @vscode/test-electron, for a machine with a desktop VS Code (or with
 * internet, where it downloads one into .vscode-test/ itself). Here, where neither is possible, use
 * runIntegration.js (code-server).
 *
 *   VSCODE_EXECUTABLE_PATH=/usr/share/code/code node out/test/harness/runIntegrationElectron.js
 *   VSCODE_VERSION=1.100.0 node out/test/harness/runIntegrationElectron.js   # downloads (needs internet)
 *
 * The product is loaded from the repo (extensionDevelopmentPath; `npm run build` first), not the .vsix.
 */
import { runTests } from '@vscode/test-electron';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { type RunnerRecord, suiteEnv } from '../integration/runner/protocol';
import { TEST_TOKEN } from './emulator';
import { artifactsRoot, cacheRoot, repoRoot } from './paths';
import { freePort } from './ports';

async function main(): Promise<number> {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-electron-'));
  const workspace = path.join(runDir, 'workspace');
  const userData = path.join(runDir, 'user-data');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.mkdirSync(workspace, { recursive: true });
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}/v2`;
  fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify({ 'sevenbridges.apiEndpoint': baseUrl, 'security.workspace.trust.enabled': false }));
  const resultsFile = path.join(artifactsRoot, 'integration-electron-results.jsonl');
  fs.mkdirSync(artifactsRoot, { recursive: true });
  fs.rmSync(resultsFile, { force: true });
  try {
    await runTests({
      vscodeExecutablePath: process.env.VSCODE_EXECUTABLE_PATH || undefined,
      version: process.env.VSCODE_VERSION || undefined,
      cachePath: cacheRoot,
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: path.join(repoRoot, 'out', 'test', 'integration', 'runner', 'runSuite.js'),
      extensionTestsEnv: suiteEnv({ endpoint: baseUrl, token: TEST_TOKEN, resultsFile, emulatorPort: port, repoRoot }),
      launchArgs: [workspace, '--user-data-dir', userData, '--extensions-dir', path.join(runDir, 'extensions'), '--disable-workspace-trust', '--disable-extensions'],
    });
  } catch (err) {
    console.error(`integration (electron): ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    fs.rmSync(runDir, { recursive: true, force: true });
  }
  const records = fs.existsSync(resultsFile) ? fs.readFileSync(resultsFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as RunnerRecord) : [];
  const end = records.find((r): r is Extract<RunnerRecord, { type: 'end' }> => r.type === 'end');
  for (const r of records) if (r.type === 'test' && r.state === 'failed') console.log(`  ✗ ${r.fullTitle}\n${r.error ?? ''}`);
  if (!end || end.passed + end.failed === 0) {
    console.log('integration (electron): FAILED: VS Code did not run the suite');
    console.log('0 passed, 1 failed');
    return 1;
  }
  console.log(`${end.passed} passed, ${end.failed} failed`);
  return end.failed > 0 ? 1 : 0;
}

main().then((code) => process.exit(code), (err: unknown) => {
  console.error(err);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
