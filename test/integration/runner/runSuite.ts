/**
 * Runs the integration suite with mocha inside the extension host, against the real `vscode` API.
 * Used by the test-runner extension the harness installs next to the product (code-server), and as the
 * `extensionTestsPath` module of @vscode/test-electron (`run()`), where a desktop VS Code is at hand.
 */
import * as fs from 'fs';
import Mocha from 'mocha';
import * as path from 'path';
import * as vscode from 'vscode';
import { startEmulator } from '../../emulator';
import { setTestEmulator } from '../helpers';
import { ENV, type RunnerRecord } from './protocol';

function findTests(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findTests(full));
    else if (entry.name.endsWith('.test.js')) out.push(full);
  }
  return out.sort();
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}

export interface SuiteOutcome {
  passed: number;
  failed: number;
  pending: number;
}

/** Runs every `suite/**\/*.test.js`, calling `emit` for each record; resolves with the counts. */
export async function runSuite(emit: (record: RunnerRecord) => void): Promise<SuiteOutcome> {
  const suiteDir = process.env[ENV.suiteDir] ?? path.resolve(__dirname, '..', 'suite');
  const files = findTests(suiteDir);
  const mocha = new Mocha({ ui: 'bdd', timeout: 30_000, color: false, reporter: 'spec' });
  const grep = process.env[ENV.grep];
  if (grep) mocha.grep(grep);
  for (const file of files) mocha.addFile(file);
  await mocha.loadFilesAsync();
  const started = Date.now();
  const counts: SuiteOutcome = { passed: 0, failed: 0, pending: 0 };
  return new Promise<SuiteOutcome>((resolve) => {
    const runner = mocha.run(() => {
      emit({ type: 'end', ...counts, durationMs: Date.now() - started });
      resolve(counts);
    });
    emit({ type: 'start', total: runner.total, files: files.map((f) => path.relative(suiteDir, f)), vscodeVersion: vscode.version, node: process.version });
    runner.on('pass', (test) => {
      counts.passed++;
      emit({ type: 'test', state: 'passed', fullTitle: test.fullTitle(), file: test.file && path.basename(test.file), durationMs: test.duration });
    });
    runner.on('fail', (test, err) => {
      counts.failed++;
      emit({ type: 'test', state: 'failed', fullTitle: test.fullTitle(), file: test.file && path.basename(test.file), durationMs: test.duration, error: errorText(err) });
    });
    runner.on('pending', (test) => {
      counts.pending++;
      emit({ type: 'test', state: 'pending', fullTitle: test.fullTitle(), file: test.file && path.basename(test.file) });
    });
  });
}

/** Appends records to the harness's results file (one JSON line each). */
export function fileEmitter(file: string): (record: RunnerRecord) => void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return (record) => fs.appendFileSync(file, `${JSON.stringify(record)}\n`);
}

/** Starts the emulator inside the extension host when the harness asked for one (SB_TEST_EMULATOR_PORT). */
export async function startInHostEmulator(): Promise<void> {
  const port = Number(process.env[ENV.emulatorPort] ?? '0');
  if (port > 0) setTestEmulator(await startEmulator({ port, token: process.env.SB_AUTH_TOKEN || undefined }));
}

/** @vscode/test-electron entry (`extensionTestsPath`): throws when a test failed or none ran. */
export async function run(): Promise<void> {
  const file = process.env[ENV.results];
  const emit = file ? fileEmitter(file) : (): void => undefined;
  await startInHostEmulator();
  const outcome = await runSuite(emit);
  if (outcome.failed > 0) throw new Error(`${outcome.failed} integration test(s) failed`);
  if (outcome.passed === 0) throw new Error('no integration test ran');
}
