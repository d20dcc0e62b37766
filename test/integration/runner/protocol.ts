import * as path from 'path';

/** Records the in-host runner appends (one JSON object a line) to the results file the harness reads. */
export type RunnerRecord =
  | { type: 'start'; total: number; files: string[]; vscodeVersion: string; node: string }
  | { type: 'test'; state: 'passed' | 'failed' | 'pending'; fullTitle: string; file?: string; durationMs?: number; error?: string }
  | { type: 'end'; passed: number; failed: number; pending: number; durationMs: number }
  | { type: 'error'; message: string };

/** Environment the harness gives the host (and so the runner and the tests). */
export const ENV = {
  /** Where the runner appends its records. */
  results: 'SB_TEST_RESULTS',
  /** Folder of compiled `*.test.js` files. */
  suiteDir: 'SB_TEST_SUITE_DIR',
  /** Mocha --grep. */
  grep: 'SB_TEST_GREP',
  /** Port on which the runner starts the emulator inside the extension host. */
  emulatorPort: 'SB_TEST_EMULATOR_PORT',
  /** The repository root (for reading package.json, media, ...). */
  repoRoot: 'SB_TEST_REPO_ROOT',
} as const;

/** The host's environment for a suite run: signed in to the emulator (SB_*), and where the runner reads and writes. */
export function suiteEnv(run: { endpoint: string; token: string; resultsFile: string; emulatorPort: number; repoRoot: string; grep?: string }): Record<string, string> {
  return {
    // Only the harness turns on what activate() hands out (src/extension.ts).
    SEVENBRIDGES_TEST_HOOKS: '1',
    SB_API_ENDPOINT: run.endpoint,
    SB_AUTH_TOKEN: run.token,
    [ENV.results]: run.resultsFile,
    [ENV.emulatorPort]: String(run.emulatorPort),
    [ENV.suiteDir]: path.join(run.repoRoot, 'out', 'test', 'integration', 'suite'),
    [ENV.repoRoot]: run.repoRoot,
    [ENV.grep]: run.grep ?? '',
  };
}
