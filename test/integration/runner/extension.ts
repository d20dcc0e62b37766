/**
 * The test-runner extension's code. The harness installs a tiny extension (`sbg-test.sevenbridges-
 * integration-runner`, activated on `*`, so before the product's `onStartupFinished`) whose main
 * requires this file. It starts the platform emulator inside the extension host (so tests can inject
 * faults and read what it received), then runs the suite and writes the results file.
 */
import type * as vscode from 'vscode';
import { ENV, type RunnerRecord } from './protocol';
import { fileEmitter, runSuite, startInHostEmulator } from './runSuite';

export async function activate(_context: vscode.ExtensionContext): Promise<void> {
  const resultsFile = process.env[ENV.results];
  if (!resultsFile) return; // installed but not under the harness: do nothing
  const emit: (record: RunnerRecord) => void = fileEmitter(resultsFile);
  try {
    await startInHostEmulator();
  } catch (err) {
    emit({ type: 'error', message: `could not start the emulator in the extension host: ${err instanceof Error ? err.stack : String(err)}` });
    return;
  }
  // Run after activation returns, so the product's onStartupFinished activation is not held up.
  setTimeout(() => {
    runSuite(emit).catch((err: unknown) => emit({ type: 'error', message: `the runner crashed: ${err instanceof Error ? err.stack : String(err)}` }));
  }, 0);
}

export function deactivate(): void {}
