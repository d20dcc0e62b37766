/** The platform emulator for the harness process (e2e, demo): on a free port unless told otherwise. */
import { Emulator, EmulatorOptions, startEmulator } from '../emulator';
import { freePort } from './ports';

export type { Emulator, EmulatorOptions } from '../emulator';

/**
 * The token the harness gives the emulator: 32 hex characters like a real one, so the token box's
 * shape check accepts it when a test types it in.
 */
export const TEST_TOKEN = '5eb1b71d9e0a4c3f8d2e6b7a1c0f9e8d';

export async function startHarnessEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ token: TEST_TOKEN, ...options, port: options.port ?? (await freePort()) });
}

/** Settings and environment that point the extension at an emulator, signed in or not. */
export function pointAt(emu: { baseUrl: string; token: string }, signedIn = true): { settings: Record<string, unknown>; env: NodeJS.ProcessEnv } {
  return {
    settings: { 'sevenbridges.apiEndpoint': emu.baseUrl },
    env: signedIn ? { SB_API_ENDPOINT: emu.baseUrl, SB_AUTH_TOKEN: emu.token } : { SB_API_ENDPOINT: emu.baseUrl, SB_AUTH_TOKEN: '' },
  };
}
