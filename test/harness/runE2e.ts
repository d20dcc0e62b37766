/**
 * `npm run test:e2e`: Playwright (playwright-core + Debian's chromium) driving a real VS Code workbench
 * (code-server 4.139.1) with the packaged extension installed and pointed at the emulator, signed out at
 * start. Runs test/e2e/specs/**\/*.spec.ts in file-name order with mocha, in one workbench. Prints
 * `N passed, N failed`; exits non-zero on a failure, when no test ran, or when the host could not start.
 * Screenshots go to test-artifacts/screenshots/ (a failing test leaves `FAILED-<title>.png`).
 *
 *   node out/test/harness/runE2e.js [--grep <pattern>]
 */
import * as fs from 'fs';
import Mocha from 'mocha';
import * as path from 'path';
import { setE2eContext } from '../e2e/fixture';
import { Workbench } from '../e2e/workbench';
import { openBrowser, type RunningBrowser } from './browser';
import { type RunningCodeServer, startCodeServer } from './codeServer';
import { type Emulator, pointAt, startHarnessEmulator } from './emulator';
import { ensureChromium, ensureHost } from './installHost';
import { repoRoot, screenshotsDir, vsixPath } from './paths';
import { installConsumerExtension } from './runnerExtension';
import { options } from '../support/args';

function findSpecs(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? findSpecs(path.join(dir, e.name)) : e.name.endsWith('.spec.js') ? [path.join(dir, e.name)] : []))
    .sort();
}

async function main(): Promise<number> {
  const t0 = Date.now();
  const host = ensureHost();
  ensureChromium();
  if (!fs.existsSync(vsixPath)) throw new Error(`${vsixPath} is missing: \`npm run package\` builds it`);
  const specs = findSpecs(path.join(repoRoot, 'out', 'test', 'e2e', 'specs'));
  if (specs.length === 0) throw new Error('no e2e spec found under out/test/e2e/specs (compile first)');

  let emulator: Emulator | undefined;
  let server: RunningCodeServer | undefined;
  let browser: RunningBrowser | undefined;
  try {
    // Task lifecycle steps of 6 s: slow enough for a person (and the spec) to see ABORTING, quick enough for a watched run to end.
    emulator = await startHarnessEmulator({ taskStepMs: 6000 });
    const target = pointAt(emulator, false);
    server = await startCodeServer({
      name: 'e2e',
      host,
      vsix: vsixPath,
      settings: target.settings,
      env: target.env,
      // Another extension that asks for the account: the accounts spec grants it access through VS Code's consent dialog.
      beforeStart: (dirs) => installConsumerExtension(dirs.extensionsDir),
    });
    browser = await openBrowser(server.url);
    const wb = new Workbench(browser.page);
    try {
      await wb.waitReady('Seven Bridges', 90_000);
    } catch (err) {
      fs.mkdirSync(screenshotsDir, { recursive: true });
      await browser.page.screenshot({ path: path.join(screenshotsDir, 'e2e-startup-failure.png') }).catch(() => undefined);
      throw new Error(`the workbench did not show the Seven Bridges activity-bar item: ${String(err)}\n--- code-server log ---\n${server.tail(60)}`);
    }
    console.log(`e2e: VS Code ${host.vscodeVersion} workbench ready in ${((Date.now() - t0) / 1000).toFixed(1)} s at ${server.url}`);
    setE2eContext({ wb, emulator, server });

    const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec' });
    const { grep } = options('grep');
    if (grep) mocha.grep(grep);
    mocha.suite.afterEach(async function () {
      const test = this.currentTest;
      if (test?.state === 'failed') {
        const file = await wb.screenshot(`FAILED-${test.fullTitle()}`.slice(0, 120)).catch(() => undefined);
        if (file) console.log(`      screenshot: ${path.relative(repoRoot, file)}`);
      }
    });
    for (const spec of specs) mocha.addFile(spec);
    await mocha.loadFilesAsync();
    const stats = await new Promise<{ passes: number; failures: number; pending: number }>((resolve) => {
      const runner = mocha.run(() => resolve({ passes: runner.stats?.passes ?? 0, failures: runner.stats?.failures ?? 0, pending: runner.stats?.pending ?? 0 }));
    });
    console.log(`e2e: finished in ${((Date.now() - t0) / 1000).toFixed(1)} s; screenshots in ${path.relative(repoRoot, screenshotsDir)}/`);
    if (stats.passes + stats.failures === 0) {
      console.log('e2e: FAILED: no test ran');
      console.log('0 passed, 1 failed');
      return 1;
    }
    console.log(`${stats.passes} passed, ${stats.failures} failed${stats.pending ? `, ${stats.pending} skipped` : ''}`);
    return stats.failures > 0 ? 1 : 0;
  } finally {
    setE2eContext(undefined);
    await browser?.close();
    await server?.close();
    await emulator?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`e2e: FAILED: ${err instanceof Error ? err.message : String(err)}`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
