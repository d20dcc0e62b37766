/**
 * `npm run test:artifacts`: greps what the real-host suites leave behind (test-artifacts/: VS Code's own
 * logs with the "Seven Bridges" output channel, code-server logs, integration results, screenshots) for the
 * tokens those runs used, and fails if any is found. The harness draws a fresh token per run and records it
 * in `.vscode-test/run-tokens.txt` (test/harness/emulator.ts), so a hit is a leak, not a fixed string that
 * happens to be in the sources. Each token is looked for as UTF-8 and as UTF-16 (VS Code's state files).
 *
 *   node out/test/faults/scanArtifacts.js [folder ...]   (default: test-artifacts/)
 */
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot, RUN_TOKENS_FILE } from '../harness/paths';

export interface ScanHit {
  file: string;
  offset: number;
  /** The text around the hit with the token masked. */
  context: string;
}

export interface ScanResult {
  files: number;
  bytes: number;
  hits: ScanHit[];
}

/** Every file under the folders (symbolic links not followed), bounded so a runaway folder cannot hang the scan. */
function listFiles(roots: readonly string[], limit = 200_000): string[] {
  const files: string[] = [];
  const stack = roots.filter((r) => fs.existsSync(r));
  while (stack.length && files.length < limit) {
    const current = stack.pop()!;
    const stat = fs.lstatSync(current);
    if (stat.isDirectory()) for (const entry of fs.readdirSync(current)) stack.push(path.join(current, entry));
    else if (stat.isFile()) files.push(current);
  }
  return files.sort();
}

/** Looks for each token (UTF-8 and UTF-16LE) in every file under the folders. */
export function scanForTokens(roots: readonly string[], tokens: readonly string[]): ScanResult {
  const needles = tokens.filter((t) => t.length >= 8).flatMap((t) => [Buffer.from(t, 'utf8'), Buffer.from(t, 'utf16le')].map((b) => ({ token: t, bytes: b })));
  const result: ScanResult = { files: 0, bytes: 0, hits: [] };
  for (const file of listFiles(roots)) {
    const data = fs.readFileSync(file);
    result.files++;
    result.bytes += data.length;
    for (const needle of needles) {
      for (let at = data.indexOf(needle.bytes); at >= 0 && result.hits.length < 1000; at = data.indexOf(needle.bytes, at + 1)) {
        const around = data.subarray(Math.max(0, at - 60), Math.min(data.length, at + needle.bytes.length + 60)).toString('utf8');
        result.hits.push({ file, offset: at, context: around.split(needle.token).join('<TOKEN>').replace(/\s+/g, ' ') });
      }
    }
  }
  return result;
}

/** The tokens the harness recorded (one a line, newest last). */
export function recordedTokens(file: string): string[] {
  if (!fs.existsSync(file)) return [];
  return [...new Set(fs.readFileSync(file, 'utf8').split(/\r?\n/).map((l) => l.trim()).filter(Boolean))];
}

function main(): number {
  const roots = process.argv.slice(2).length ? process.argv.slice(2).map((p) => path.resolve(p)) : [path.join(repoRoot, 'test-artifacts')];
  const tokens = recordedTokens(RUN_TOKENS_FILE);
  const where = roots.map((r) => path.relative(repoRoot, r) || '.').join(', ');
  if (!tokens.length) {
    console.log(`artifact scan: no harness run has recorded a token in ${path.relative(repoRoot, RUN_TOKENS_FILE)} yet; nothing to look for in ${where}`);
    return 0;
  }
  const started = Date.now();
  const result = scanForTokens(roots, tokens);
  const mb = (result.bytes / 1e6).toFixed(1);
  if (result.hits.length) {
    console.log(`artifact scan: FAILED: the token of a test run is in ${new Set(result.hits.map((h) => h.file)).size} file(s):`);
    for (const hit of result.hits.slice(0, 20)) console.log(`  ${path.relative(repoRoot, hit.file)} @${hit.offset}: …${hit.context}…`);
    console.log(`(${result.files} files, ${mb} MB, ${tokens.length} tokens, in ${Date.now() - started} ms)`);
    return 1;
  }
  console.log(`artifact scan: none of the ${tokens.length} tokens of the recorded test runs is in ${result.files} files (${mb} MB) under ${where} (${Date.now() - started} ms)`);
  return 0;
}

if (require.main === module) process.exit(main());
