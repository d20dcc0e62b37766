// Runs inside the real extension host (code-server), loaded by the harness's test-runner extension, which is
// activated on `*` — before the product's own `onStartupFinished`.
// Times `activate()` of the product and of an
// empty extension installed beside it (same activation event), each from inactive: VS Code loads the main file
// and calls its activate(). Counts the requests the in-host emulator (which the product is signed in to)
// receives while the product activates (a third, empty, extension is activated first: see WARM_UP_EXTENSION_ID), and in the 3 s after. Writes the figures where the bench reads them.
import * as fs from 'fs';
import * as vscode from 'vscode';
import { emulator } from '../../../test/integration/helpers';
import { ACTIVATION_ORDER_ENV, ACTIVATION_OUT_ENV, EMPTY_EXTENSION_ID, WARM_UP_EXTENSION_ID, type ActivationProbe, type ActivationTiming } from '../probe';

const PRODUCT_ID = 'sbg-community.sevenbridges';
const AFTER_MS = 3_000;
/** Quiet time after startup finished, before the first activation. */
const SETTLE_MS = 2_000;

async function timeActivation(id: string): Promise<ActivationTiming & { readyMs?: number }> {
  const ext = vscode.extensions.getExtension(id);
  if (!ext) throw new Error(`${id} is not installed in this host`);
  const wasActive = ext.isActive;
  const started = performance.now();
  const exported = (await ext.activate()) as { ready?: Promise<unknown> } | undefined;
  const activateMs = performance.now() - started;
  if (!exported?.ready) return { wasActive, activateMs };
  await exported.ready;
  return { wasActive, activateMs, readyMs: performance.now() - started };
}

describe('bench: activation in the real host', () => {
  it('loads and activates the product and an empty extension', async function () {
    this.timeout(30_000);
    const order = process.env[ACTIVATION_ORDER_ENV] === 'product-first' ? 'product-first' : 'empty-first';
    const emu = emulator();
    const warmUp = vscode.extensions.getExtension(WARM_UP_EXTENSION_ID);
    const deadline = Date.now() + 60_000;
    while (!warmUp?.isActive && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (!warmUp?.isActive) throw new Error('startup did not finish within 60 s (the warm-up extension was not activated)');
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    let empty: ActivationTiming | undefined;
    if (order === 'empty-first') empty = await timeActivation(EMPTY_EXTENSION_ID);
    const before = emu.stats.requests;
    const product = await timeActivation(PRODUCT_ID);
    const during = emu.stats.requests - before; // counted once started: activation and the start right after
    if (order === 'product-first') empty = await timeActivation(EMPTY_EXTENSION_ID);
    await new Promise((r) => setTimeout(r, AFTER_MS));
    const probe: ActivationProbe = {
      product,
      empty: empty!,
      order,
      requestsDuringActivate: during,
      requestsAfterActivate: emu.stats.requests - before - during,
      vscodeVersion: vscode.version,
      node: process.version,
    };
    const out = process.env[ACTIVATION_OUT_ENV];
    if (out) fs.writeFileSync(out, JSON.stringify(probe));
  });
});
