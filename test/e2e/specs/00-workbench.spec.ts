import * as assert from 'assert';
import { COMMAND, e2e, ensureSignedIn, VIEW } from '../fixture';

describe('the workbench with Seven Bridges installed', () => {
  it('shows the Seven Bridges view from the activity bar, asking for a token', async () => {
    const { wb } = e2e();
    await wb.openViewContainer('Seven Bridges');
    await wb.pane(VIEW.tasks).waitFor();
    await wb.pane(VIEW.files).waitFor();
    await wb.pane(VIEW.tasks).locator('.welcome-view').waitFor();
    const buttons = await wb.welcomeButtons(VIEW.tasks);
    await wb.screenshot('01-signed-out-welcome');
    assert.ok(buttons.includes('Set Authentication Token'), `welcome buttons: ${buttons.join(', ')}`);
  });

  it('lists the extension\'s commands in the command palette', async () => {
    const { wb } = e2e();
    const page = wb.page;
    await page.keyboard.press('F1');
    await wb.typeInQuickInput('>Seven Bridges:');
    await wb.quickItem(COMMAND.setToken, true).waitFor();
    const labels = (await wb.quickItems()).map((i) => i.label);
    await wb.screenshot('02-command-palette');
    await page.keyboard.press('Escape');
    assert.ok(labels.includes(COMMAND.setToken), labels.join(', '));
    assert.ok(labels.includes(COMMAND.selectPlatform), labels.join(', '));
  });

  it('sets the token from the command palette and shows the task groups', async () => {
    const { wb } = e2e();
    await wb.runCommand(COMMAND.setToken);
    await wb.waitForQuickInput(/Authentication Token/);
    const box = await wb.quickInputState();
    assert.match(box.title, /Authentication Token/);
    await wb.screenshot('03-token-box');
    await signInWithOpenBox();
    await wb.waitForNotification(/Signed in as/);
    await ensureSignedIn();
    const items = await wb.waitForTreeItems(VIEW.tasks, 1, 20_000);
    await wb.screenshot('04-task-groups');
    assert.ok(items.some((i) => /^(Running|Queued|Draft|Completed|Failed|Aborted)$/.test(i.label)), `task groups: ${items.map((i) => `${i.label} ${i.description}`).join(', ')}`);
    const status = await wb.statusBarItems();
    const account = status.find((s) => s.text.includes(emulatorUser()));
    assert.ok(account, `status bar: ${status.map((s) => s.text).join(' | ')}`);
    // What a screen reader says: plain words, no Markdown.
    assert.match(account.ariaLabel, new RegExp(`^Seven Bridges account: Signed in to .* as ${emulatorUser()}\\. Click for account actions\\.$`), account.ariaLabel);
    assert.doesNotMatch(account.ariaLabel, /\*\*|`|\$\(/, account.ariaLabel);
  });
});

function emulatorUser(): string {
  return e2e().emulator.username;
}

async function signInWithOpenBox(): Promise<void> {
  const { wb, emulator } = e2e();
  await wb.typeInQuickInput(emulator.token, { submit: true });
  await wb.waitForQuickInputClosed(20_000);
}
