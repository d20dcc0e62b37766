/**
 * An app found and opened as a person does it (#39), seen on screen: Browse Apps… from the palette; words that only
 * the app's category holds ("VCF Processing") find it, through the platform's search; the app picked opens as its
 * page, its inputs first. A screenshot at each step.
 */
import * as assert from 'assert';
import { waitFor } from '../../support/waitFor';
import { e2e, ensureSignedIn } from '../fixture';

describe('apps: browsed and opened', function () {
  this.timeout(120_000);

  after(async () => {
    const { wb } = e2e();
    if (await wb.quickInput().isVisible().catch(() => false)) await wb.page.keyboard.press('Escape');
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
  });

  it('finds an app by its category and opens its page', async () => {
    const { wb } = e2e();
    await wb.openViewContainer('Seven Bridges');
    await ensureSignedIn();

    await wb.runCommand('Seven Bridges: Browse Apps…');
    await wb.waitForQuickInput('Browse Apps');
    await waitFor(async () => (await wb.quickItems()).length > 1, 'your apps and the public ones listed', 15_000);
    await wb.typeInQuickInput('vcf processing');
    const found = await waitFor(async () => {
      // An app's row has a description (its revision and project); a separator's has none.
      const apps = (await wb.quickItems()).filter((i) => i.description !== '');
      return apps.length > 0 && apps.every((i) => i.label === 'Variant Filter') ? apps : undefined;
    }, 'the platform\'s search to answer', 15_000);
    assert.match(found[0].description, /^revision \d+ · rfranklin\/my-project$/, JSON.stringify(found));
    await wb.screenshot('apps-browse-1-searched');
    await wb.pickQuickItem('Variant Filter', true);

    const text = await waitFor(async () => {
      const t = await wb.activeEditorText();
      return t.includes('# Variant Filter') && t.includes('## Inputs') ? t : undefined;
    }, 'the app\'s page', 20_000);
    assert.ok(text.includes('| `input_bam` | Aligned reads | `File` | required |  | BAM |'), text);
    assert.match(await wb.activeEditorTitle(), /^variant-filter/);
    await wb.screenshot('apps-browse-2-page');
  });
});
