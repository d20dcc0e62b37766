/**
 * `npm run test:integration`: runs test/integration/suite/**\/*.test.ts inside a real VS Code extension
 * host (code-server 4.139.1 = VS Code 1.139), with the product installed from its .vsix and the
 * emulator started inside the host. Prints every test, then `N passed, N failed`; exits non-zero when a
 * test failed, none ran, or the host could not start.
 *
 *   node out/test/harness/runIntegration.js [--grep <pattern>]
 */
import * as fs from 'fs';
import * as path from 'path';
import { type RunnerRecord, suiteEnv } from '../integration/runner/protocol';
import { openBrowser, type RunningBrowser } from './browser';
import { type RunningCodeServer, startCodeServer } from './codeServer';
import { TEST_TOKEN } from './emulator';
import { ensureChromium, ensureHost } from './installHost';
import { artifactsRoot, repoRoot, screenshotsDir, vsixPath } from './paths';
import { freePort } from './ports';
import { installConsumerExtension, installRunnerExtension } from './runnerExtension';
import { options } from '../support/args';

const START_TIMEOUT_MS = Number(process.env.SB_TEST_START_TIMEOUT_MS ?? 90_000);
const SUITE_TIMEOUT_MS = Number(process.env.SB_TEST_SUITE_TIMEOUT_MS ?? 600_000);

function print(record: RunnerRecord): void {
  switch (record.type) {
    case 'start':
      console.log(`integration: VS Code ${record.vscodeVersion} (extension host on Node ${record.node}), ${record.total} tests in ${record.files.length} files`);
      break;
    case 'test': {
      const mark = record.state === 'passed' ? '  ✓' : record.state === 'failed' ? '  ✗' : '  -';
      console.log(`${mark} ${record.fullTitle}${record.durationMs !== undefined ? ` (${record.durationMs} ms)` : ''}${record.state === 'pending' ? ' (pending)' : ''}`);
      if (record.error) console.log(record.error.split('\n').map((l) => `      ${l}`).join('\n'));
      break;
    }
    case 'end':
      break;
    case 'error':
      console.log(`integration runner error: ${record.message}`);
      break;
  }
}

async function main(): Promise<number> {
  const t0 = Date.now();
  const host = ensureHost();
  ensureChromium();
  if (!fs.existsSync(vsixPath)) throw new Error(`${vsixPath} is missing: \`npm run package\` builds it`);
  const resultsFile = path.join(artifactsRoot, 'integration-results.jsonl');
  fs.mkdirSync(artifactsRoot, { recursive: true });
  fs.rmSync(resultsFile, { force: true });

  const emulatorPort = await freePort();
  const baseUrl = `http://127.0.0.1:${emulatorPort}/v2`;
  let server: RunningCodeServer | undefined;
  let browser: RunningBrowser | undefined;
  let exitCode = 1;
  try {
    server = await startCodeServer({
      name: 'integration',
      host,
      vsix: vsixPath,
      beforeStart: (dirs) => {
        installRunnerExtension(dirs.extensionsDir);
        installConsumerExtension(dirs.extensionsDir);
      },
      settings: { 'sevenbridges.apiEndpoint': baseUrl },
      env: suiteEnv({ endpoint: baseUrl, token: TEST_TOKEN, resultsFile, emulatorPort, repoRoot, grep: options('grep').grep }),
    });
    const startedAt = Date.now();
    console.log(`integration: code-server up in ${((startedAt - t0) / 1000).toFixed(1)} s at ${server.url}`);
    // The extension host starts when a workbench connects.
    browser = await openBrowser(server.url);

    let offset = 0;
    let buffered = '';
    let end: Extract<RunnerRecord, { type: 'end' }> | undefined;
    let started = false;
    let failure: string | undefined;
    let passed = 0;
    let failed = 0;
    while (!end && !failure) {
      await new Promise((r) => setTimeout(r, 250));
      if (fs.existsSync(resultsFile)) {
        const text = fs.readFileSync(resultsFile, 'utf8');
        buffered += text.slice(offset);
        offset = text.length;
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines.filter(Boolean)) {
          const record = JSON.parse(line) as RunnerRecord;
          print(record);
          if (record.type === 'start') {
            started = true;
            console.log(`integration: suite started ${((Date.now() - t0) / 1000).toFixed(1)} s after launch`);
          }
          if (record.type === 'test' && record.state === 'passed') passed++;
          if (record.type === 'test' && record.state === 'failed') failed++;
          if (record.type === 'end') end = record;
          if (record.type === 'error') failure = record.message;
        }
      }
      if (!started && Date.now() - startedAt > START_TIMEOUT_MS) failure = `the extension host did not start the suite within ${START_TIMEOUT_MS / 1000} s`;
      if (started && Date.now() - startedAt > SUITE_TIMEOUT_MS) failure = `the suite did not finish within ${SUITE_TIMEOUT_MS / 1000} s`;
    }
    if (failure || !end) {
      fs.mkdirSync(screenshotsDir, { recursive: true });
      await browser.page.screenshot({ path: path.join(screenshotsDir, 'integration-failure.png') }).catch(() => undefined);
      console.log(`integration: FAILED: ${failure}\n--- code-server log (${server.logFile}) ---\n${server.tail(60)}`);
      console.log(`${passed} passed, ${failed + 1} failed`);
      return 1;
    }
    console.log(`integration: finished in ${((Date.now() - t0) / 1000).toFixed(1)} s (suite ${(end.durationMs / 1000).toFixed(1)} s)`);
    if (end.passed + end.failed === 0) {
      console.log('integration: FAILED: no test ran');
      console.log('0 passed, 1 failed');
      return 1;
    }
    console.log(`${end.passed} passed, ${end.failed} failed${end.pending ? `, ${end.pending} skipped` : ''}`);
    exitCode = end.failed > 0 ? 1 : 0;
    return exitCode;
  } finally {
    await browser?.close();
    await server?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`integration: FAILED: ${err instanceof Error ? err.message : String(err)}`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
