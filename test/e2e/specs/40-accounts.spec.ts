import * as assert from 'assert';
import type { Locator } from 'playwright-core';
import { e2e, ensureSignedIn, VIEW } from '../fixture';
import { escape } from '../workbench';

// The consumer extension the harness installs next to the product (test/harness/runnerExtension.ts).
const CONSUMER_ASK = 'Session Consumer: Ask for a Seven Bridges Session';
const CONSUMER_NAME = 'Seven Bridges Session Consumer (test)';

describe('the Accounts menu', () => {
  const account = () => `${e2e().emulator.username} (${new URL(e2e().emulator.baseUrl).host})`;

  /** The Accounts menu (activity bar, bottom), opened. */
  async function openAccountsMenu(): Promise<Locator> {
    const { wb } = e2e();
    const menus = wb.page.locator('.monaco-menu-container .monaco-menu, .context-view .monaco-menu');
    await wb.page.keyboard.press('Escape');
    // A menu closed a moment ago fades out: wait until it is gone, so the one read is the new one.
    await menus.first().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    await wb.activityBarItem('Accounts').click();
    await menus.first().waitFor();
    await wb.page.waitForTimeout(250); // its fade-in, for the screenshots
    return menus.first();
  }

  async function menuEntries(menu: Locator): Promise<string[]> {
    return (await menu.locator('.action-item .action-label').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
  }

  /** An open menu does not change: opens it again until its entries pass `check` (10 s), and leaves it open. */
  async function accountsMenuUntil(check: (entries: string[]) => boolean): Promise<string[]> {
    let entries: string[] = [];
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
      entries = await menuEntries(await openAccountsMenu());
      if (check(entries)) break;
    }
    return entries;
  }

  /** VS Code's modal dialog: its message, then a click on `button`. */
  async function answerDialog(message: RegExp, button: string): Promise<string> {
    const { wb } = e2e();
    const dialog = wb.page.locator('.monaco-dialog-box');
    // A dialog without a title shows its message as the detail.
    const body = dialog.locator('.dialog-message-container');
    await body.filter({ hasText: message }).waitFor({ timeout: 30_000 });
    const text = (await body.innerText()).trim();
    await wb.screenshot(`accounts-dialog-${button.toLowerCase().replace(/\W+/g, '-')}`);
    await dialog.locator('.dialog-buttons .monaco-button', { hasText: new RegExp(`^\\s*${escape(button)}\\s*$`) }).first().click();
    await dialog.waitFor({ state: 'hidden' });
    return text;
  }

  before(async () => {
    const { wb } = e2e();
    // After the other specs a pane may be folded; run alone (--grep), the view may not have drawn its welcome yet.
    await wb.resetViews();
    await wb.pane(VIEW.tasks).locator('.welcome-view .monaco-button, .monaco-list-row').first().waitFor({ timeout: 30_000 });
    await ensureSignedIn();
  });

  it('shows the signed-in account, named after its user and platform', async () => {
    const { wb } = e2e();
    // VS Code adds the provider's label to the account's.
    const entries = await accountsMenuUntil((e) => e.includes(`${account()} (Seven Bridges)`));
    await wb.screenshot('accounts-0-accounts-menu');
    await wb.page.keyboard.press('Escape');
    assert.ok(entries.includes(`${account()} (Seven Bridges)`), `Accounts menu: ${entries.join(' | ')}`);
    // The first sign-in (Set Authentication Token, right after activation) raced the sign-in offer: nothing is left of it.
    assert.ok(!entries.some((e) => /^\s*(Grant access|Sign in with)/.test(e)), `no request is left from the first sign-in: ${entries.join(' | ')}`);
  });

  it('gives another extension the session only once the user allows it in VS Code\'s dialog', async () => {
    const { wb } = e2e();
    await wb.runCommand(CONSUMER_ASK);
    const asked = await answerDialog(/wants to sign in using Seven Bridges/, 'Allow');
    assert.match(asked, new RegExp(escape(CONSUMER_NAME)));
    // Several accounts are possible (one per platform): VS Code asks which one it may use.
    await wb.waitForQuickInput();
    await wb.quickItem(account()).waitFor();
    await wb.screenshot('accounts-1-account-picker');
    await wb.pickQuickItem(account());
    const told = await wb.waitForNotification(/Session Consumer got/);
    await wb.screenshot('accounts-2-consumer-got-session');
    assert.strictEqual(told, `Session Consumer got the session of ${account()}, and gets it silently now.`);
    await wb.clearNotifications();
  });

  it('Sign Out from the Accounts menu signs the extension out', async () => {
    const { wb } = e2e();
    const menu = await openAccountsMenu();
    // The keyboard, as a person can: the account entry, its submenu, Sign Out.
    const focused = menu.locator('.action-item.focused .action-label');
    for (let i = 0; i < 4 && !(await focused.innerText().catch(() => '')).startsWith(account()); i++) await wb.page.keyboard.press('ArrowDown');
    await wb.page.keyboard.press('ArrowRight');
    const submenuFocus = wb.page.locator('.monaco-submenu .action-item.focused .action-label');
    await submenuFocus.waitFor();
    for (let i = 0; i < 4 && !/^\s*Sign Out\s*$/.test(await submenuFocus.innerText()); i++) await wb.page.keyboard.press('ArrowDown');
    await wb.screenshot('accounts-3-accounts-sign-out');
    await wb.page.keyboard.press('Enter');
    // The consumer used the account: VS Code names it and asks first.
    await answerDialog(new RegExp(escape(CONSUMER_NAME)), 'Sign Out');
    await wb.waitForNotification(/Signed out of/);
    await wb.openViewContainer('Seven Bridges');
    await wb.pane(VIEW.tasks).locator('.welcome-view').waitFor();
    const buttons = await wb.welcomeButtons(VIEW.tasks);
    const after = await accountsMenuUntil((e) => !e.some((entry) => entry.startsWith(account())));
    await wb.screenshot('accounts-4-signed-out');
    await wb.page.keyboard.press('Escape');
    assert.ok(buttons.includes('Set Authentication Token'), `welcome buttons: ${buttons.join(', ')}`);
    assert.ok(!after.some((e) => e.startsWith(account())), `Accounts menu after Sign Out: ${after.join(' | ')}`);
  });

  it('signs in from the Accounts menu the way Set Authentication Token does: the token of the platform in use, checked', async () => {
    const { wb, emulator } = e2e();
    // Signed out everywhere, the extension asks for a session: VS Code offers the sign-in in the Accounts menu.
    const signInEntry = /^\s*Sign in with Seven Bridges/;
    const entries = await accountsMenuUntil((e) => e.some((entry) => signInEntry.test(entry)));
    await wb.screenshot('accounts-5-accounts-sign-in');
    assert.ok(entries.some((e) => signInEntry.test(e)), `Accounts menu: ${entries.join(' | ')}`);
    await wb.clickContextMenuEntry('Sign in with Seven Bridges');
    await wb.waitForQuickInput(/Authentication Token/);
    assert.match((await wb.quickInputState()).title, new RegExp(escape(new URL(emulator.baseUrl).host)), 'for the platform in use');
    await wb.screenshot('accounts-6-accounts-sign-in-token');
    await wb.typeInQuickInput(emulator.token, { submit: true });
    await wb.waitForQuickInputClosed(20_000);
    await wb.waitForNotification(/Signed in as/);
    await wb.waitForTreeItems(VIEW.tasks, 1, 20_000);
    const final = await accountsMenuUntil((e) => e.includes(`${account()} (Seven Bridges)`) && !e.some((entry) => signInEntry.test(entry)));
    await wb.screenshot('accounts-7-accounts-signed-in-again');
    await wb.page.keyboard.press('Escape');
    assert.ok(final.includes(`${account()} (Seven Bridges)`), `Accounts menu: ${final.join(' | ')}`);
    // The sign-in request is answered, and no second ask left a "Grant access" request behind it.
    assert.ok(!final.some((e) => signInEntry.test(e) || /^\s*Grant access/.test(e)), `no request is left once signed in: ${final.join(' | ')}`);
  });
});
