import * as path from 'path';

/** The repository root (this file compiles to out/test/harness/paths.js). */
export const repoRoot = path.resolve(__dirname, '..', '..', '..');
/** Git-ignored cache of VS Code hosts, as @vscode/test-electron keeps its downloads (SB_HOST_CACHE overrides). */
export const cacheRoot = process.env.SB_HOST_CACHE ? path.resolve(process.env.SB_HOST_CACHE) : path.join(repoRoot, '.vscode-test');
/** The tokens the harness drew for its runs, one a line; `npm run test:artifacts` greps the artefacts for them. */
export const RUN_TOKENS_FILE = path.join(cacheRoot, 'run-tokens.txt');
/** Screenshots and logs a test run keeps (git-ignored). */
export const artifactsRoot = path.join(repoRoot, 'test-artifacts');
export const screenshotsDir = path.join(artifactsRoot, 'screenshots');
export const logsDir = path.join(artifactsRoot, 'logs');

/** The product as a user installs it: `npm run package` writes it here. */
export const vsixPath = path.join(repoRoot, 'sevenbridges.vsix');
