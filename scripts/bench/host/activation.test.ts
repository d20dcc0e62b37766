// Runs inside the real extension host (code-server), loaded by the harness's test-runner extension, which is
// activated on `*` — before the product's own `onStartupFinished`. Times `activate()` of the product from
// inactive: VS Code loads dist/extension.js and calls its activate(). Writes the figure where the bench reads it.
import * as fs from 'fs';
import * as vscode from 'vscode';
import { ACTIVATION_OUT_ENV, type ActivationProbe } from '../probe';

describe('bench: activation in the real host', () => {
  it('loads the bundle and activates the product', async () => {
    const ext = vscode.extensions.getExtension('sbg-community.sevenbridges');
    if (!ext) throw new Error('the product is not installed in this host');
    const wasActive = ext.isActive;
    const started = performance.now();
    await ext.activate();
    const probe: ActivationProbe = { wasActive, activateMs: performance.now() - started, vscodeVersion: vscode.version, node: process.version };
    const out = process.env[ACTIVATION_OUT_ENV];
    if (out) fs.writeFileSync(out, JSON.stringify(probe));
  });
});
