import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateProduct, EXTENSION_ID, manifest, productExtension } from '../helpers';

describe('activation', () => {
  it('the packaged extension is installed with its manifest', () => {
    const ext = productExtension();
    assert.strictEqual(ext.id, EXTENSION_ID);
    assert.strictEqual(manifest().main, './dist/extension.js');
    assert.strictEqual(ext.extensionKind, vscode.ExtensionKind.Workspace);
  });

  it('activates without error and returns its services', async () => {
    const api = await activateProduct();
    assert.ok(api && api.services, 'activate() returned no services');
    assert.ok(api.services.client && api.services.session && api.services.log);
  });

  it('activates on startup by itself (onStartupFinished)', async function () {
    assert.ok((manifest().activationEvents ?? []).includes('onStartupFinished'));
    // The runner activates on `*`; the product is activated by the host, not by this test, shortly after.
    const ext = productExtension();
    const deadline = Date.now() + 15_000;
    while (!ext.isActive && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.ok(ext.isActive);
  });
});
