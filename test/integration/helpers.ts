/**
 * Helpers for integration tests (they run inside the real extension host; import `vscode` freely).
 *
 *   import { activateProduct, emulator, manifest, waitFor } from '../helpers';
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { Emulator } from '../emulator';
import type { Activation, ExtensionApi } from '../../src/extension';
import { ENV } from './runner/protocol';

export const EXTENSION_ID = 'sbg-community.sevenbridges';

const KEY = '__sevenbridgesTestEmulator';

/** Called by the runner once it has started the emulator inside the host. */
export function setTestEmulator(emu: Emulator): void {
  (globalThis as Record<string, unknown>)[KEY] = emu;
}

/**
 * The emulator the product is pointed at (SB_API_ENDPOINT + SB_AUTH_TOKEN, so it starts signed in).
 * It runs in this process: tests may inject faults (`emulator().burst429(2)`), read
 * `copyRequests`, `stats` and `data`.
 */
export function emulator(): Emulator {
  const emu = (globalThis as Record<string, unknown>)[KEY] as Emulator | undefined;
  assert.ok(emu, 'no emulator: the harness starts one in the extension host (SB_TEST_EMULATOR_PORT)');
  return emu;
}

/** The installed product extension. */
export function productExtension(): vscode.Extension<Activation> {
  const ext = vscode.extensions.getExtension<Activation>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in this host`);
  return ext;
}

/** Activates the product (if not yet) and returns its running parts, once started (`activate()` returns `ready`). */
export async function activateProduct(): Promise<ExtensionApi> {
  const ext = productExtension();
  const activation = ext.isActive ? ext.exports : await ext.activate();
  assert.ok(ext.isActive, 'the extension did not activate');
  return activation.ready;
}

/** The product's package.json as installed (what VS Code read). */
export function manifest(): ProductManifest {
  return productExtension().packageJSON as ProductManifest;
}

/** The repository root, for reading sources or fixtures. */
export function repoRoot(): string {
  return process.env[ENV.repoRoot] ?? path.resolve(__dirname, '..', '..', '..');
}

import { waitFor } from '../support/waitFor';
export { waitFor };

/** Waits until the tasks the suites before started have ended (each request moves them on): what a test reads of tasks then holds still. */
export async function tasksStartedBeforeEnded(timeoutMs: number): Promise<void> {
  await waitFor(
    () => {
      emulator().advance();
      return emulator().pendingTaskSteps() === 0;
    },
    'the tasks started by the suites before to end',
    timeoutMs,
  );
}

/** Closes every editor with unsaved changes without saving (closing it otherwise asks, and the question blocks the suites after). */
export async function revertDirtyEditors(): Promise<void> {
  for (const document of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
}

/** Closes every editor, those with unsaved changes without saving (older hosts ask even for an untitled summary). */
export async function closeAllEditors(): Promise<void> {
  await revertDirtyEditors();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** The installed bundle's text (e.g. to look for context keys it sets). */
/** The bundle as installed: the main file and the rest it loads after activation (every dist/*.js). */
export function bundleText(): string {
  const ext = productExtension();
  const dist = path.dirname(path.join(ext.extensionPath, manifest().main));
  return fs.readdirSync(dist).filter((f) => f.endsWith('.js')).sort().map((f) => fs.readFileSync(path.join(dist, f), 'utf8')).join('\n');
}

export interface ProductManifest {
  name: string;
  publisher: string;
  main: string;
  activationEvents?: string[];
  contributes: {
    commands?: { command: string; title: string; category?: string; icon?: string }[];
    viewsContainers?: Record<string, { id: string; title: string; icon: string }[]>;
    views?: Record<string, { id: string; name: string; when?: string }[]>;
    viewsWelcome?: { view: string; contents: string; when?: string }[];
    menus?: Record<string, { command?: string; submenu?: string; when?: string; group?: string }[]>;
    keybindings?: { command: string; key: string; when?: string }[];
    configuration?: { properties: Record<string, unknown> };
  };
}
