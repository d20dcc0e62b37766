/**
 * The settings' descriptions link to their commands: in the Settings editor, the API endpoint's
 * "Select Platform" link opens the platform pick.
 */
import * as assert from 'assert';
import { e2e } from '../fixture';

describe('the settings', function () {
  this.timeout(60_000);

  after(async () => {
    // VS Code 1.139 shows Settings in a modal editor; older ones in a tab. F1 after a link's command can land
    // nowhere while the settings list holds the focus, so close it with its own button.
    const { page } = e2e().wb;
    const closeModal = page.locator('.modal-editor-action-container .action-label[aria-label^="Close Modal Editor"]');
    const tab = page.locator('.part.editor .tab', { hasText: 'Settings' });
    if (await closeModal.isVisible()) await closeModal.click();
    else if (await tab.count()) await tab.first().locator('.tab-actions .action-label').click();
    await page.locator('.settings-editor').first().waitFor({ state: 'hidden', timeout: 5_000 });
  });

  it("link to their commands: the API endpoint's “Select Platform” opens the platform pick", async () => {
    const { wb } = e2e();
    await wb.runCommand('Preferences: Open Settings (UI)');
    const editor = wb.page.locator('.settings-editor').first();
    await editor.waitFor();
    await editor.locator('.settings-header .suggest-input-container').click();
    await wb.page.keyboard.type('sevenbridges.apiEndpoint');
    const setting = editor.locator('.setting-item-contents', { has: wb.page.locator('.setting-item-label', { hasText: /Api Endpoint/i }) }).first();
    await setting.waitFor({ timeout: 20_000 });
    const link = setting.locator('.setting-item-markdown a', { hasText: 'Select Platform' });
    await link.waitFor();
    await wb.screenshot('settings-01-api-endpoint-links');
    await link.click();
    await wb.waitForQuickInput(/Select Platform/);
    const offered = (await wb.quickItems()).map((i) => i.label);
    await wb.screenshot('settings-02-link-ran-select-platform');
    // Escape: choosing a platform would point the workbench away from the emulator.
    await wb.page.keyboard.press('Escape');
    await wb.waitForQuickInputClosed();
    assert.ok(offered.includes('Cancer Genomics Cloud'), offered.join(' | '));
  });
});
