/**
 * The tokens the harness gives its runs, recorded so that `npm run test:artifacts` (test/faults/scanArtifacts.ts)
 * can grep the artefacts the runs leave for them. Each harness process draws its own (emulator.ts: TEST_TOKEN).
 */
import * as fs from 'fs';
import * as path from 'path';
import { RUN_TOKENS_FILE } from './paths';

const KEEP = 50;

/** Adds a token to RUN_TOKENS_FILE (the newest KEEP are kept). Best effort: a failure only leaves the scan less to look for. */
export function recordRunToken(token: string | undefined): void {
  if (!token) return;
  try {
    const kept = fs.existsSync(RUN_TOKENS_FILE) ? fs.readFileSync(RUN_TOKENS_FILE, 'utf8').split('\n').filter(Boolean) : [];
    if (kept.includes(token)) return;
    fs.mkdirSync(path.dirname(RUN_TOKENS_FILE), { recursive: true });
    fs.writeFileSync(RUN_TOKENS_FILE, [...kept, token].slice(-KEEP).join('\n') + '\n');
  } catch {
    /* best effort */
  }
}
