/** The platform emulator for the harness process (e2e, demo): on a free port unless told otherwise. */
import { randomBytes } from 'crypto';
import { type Emulator, type EmulatorOptions, startEmulator } from '../emulator';
import { recordRunToken } from './runTokens';
import { freePort } from './ports';

export type { Emulator, EmulatorOptions } from '../emulator';

/**
 * The token the harness gives the emulator: 32 hex characters like a real one, so the token box's
 * shape check accepts it when a test types it in. Drawn afresh for each run and recorded in RUN_TOKENS_FILE,
 * so that `npm run test:artifacts` can grep the run's logs for it (a fixed token is in the sources: a grep
 * for it proves little).
 */
export const TEST_TOKEN = randomBytes(16).toString('hex');

export async function startHarnessEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  recordRunToken(options.token ?? TEST_TOKEN);
  return startEmulator({ token: TEST_TOKEN, ...options, port: options.port ?? (await freePort()) });
}

/** Settings and environment that point the extension at an emulator, signed in or not. */
export function pointAt(emu: { baseUrl: string; token: string }, signedIn = true): { settings: Record<string, unknown>; env: NodeJS.ProcessEnv } {
  return {
    settings: { 'sevenbridges.apiEndpoint': emu.baseUrl },
    env: signedIn ? { SB_API_ENDPOINT: emu.baseUrl, SB_AUTH_TOKEN: emu.token } : { SB_API_ENDPOINT: emu.baseUrl, SB_AUTH_TOKEN: '' },
  };
}
