import * as vscode from 'vscode';
import { ApiError, describeError } from '../api/errors';
import { endpointLabel } from '../api/endpoint';
import type { Services } from '../services';
import { commandTitles, COMMANDS } from '../keys/commands';

/**
 * The status-bar indication of who is signed in where. When the sign-in changes it checks the token once
 * (GET /v2/user) to learn the username, and says so when the platform rejects it.
 */
export class AccountStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('sevenbridges.account', vscode.StatusBarAlignment.Left, -100);
  private checking: AbortController | undefined;
  private shown: { icon: string; text: string; tooltip: string; warning: boolean } | undefined;
  private readonly budgetChanged: vscode.Disposable;

  constructor(private readonly services: Services) {
    this.item.name = vscode.l10n.t('Seven Bridges Account');
    this.item.command = COMMANDS.accountMenu;
    this.budgetChanged = services.budgetNotice.onDidChange(() => this.draw());
  }

  /** Re-renders, and checks the token when signed in and the username is not known yet. */
  async update(): Promise<void> {
    const { session } = this.services;
    const endpoint = session.endpoint;
    const label = endpointLabel(endpoint);
    if (session.state === 'signedOut') {
      this.checking?.abort();
      this.shown = undefined;
      this.item.hide();
      return;
    }
    if (session.username) {
      this.render('$(account)', `${session.username} · ${shortLabel(label)}`, vscode.l10n.t('Signed in to {0} ({1}) as {2}.', label, endpoint, session.username));
      return;
    }
    this.render('$(account)', shortLabel(label), vscode.l10n.t('Signed in to {0} ({1}); checking the token…', label, endpoint));
    this.checking?.abort();
    const checking = (this.checking = new AbortController());
    try {
      const user = await this.services.client.user({ signal: checking.signal });
      if (checking.signal.aborted) return;
      session.username = user.username;
    } catch (error) {
      if (checking.signal.aborted || (error instanceof ApiError && error.isCancelled)) return;
      if (error instanceof ApiError && error.isUnauthorized) {
        this.render('$(warning)', vscode.l10n.t('Seven Bridges: token rejected'), vscode.l10n.t('{0} rejected the stored token. Click to set a new one.', label), true);
      } else {
        this.render('$(account)', shortLabel(label), vscode.l10n.t('Signed in to {0} ({1}), but the token could not be checked: {2}', label, endpoint, describeError(error)));
      }
    }
  }

  /** `tooltip` is plain words: it is also what a screen reader says. */
  private render(icon: string, text: string, tooltip: string, warning = false): void {
    this.shown = { icon, text, tooltip, warning };
    this.draw();
  }

  /** What was rendered last, with the API budget's words while it is low. */
  private draw(): void {
    if (!this.shown) return;
    const { icon, text, tooltip, warning } = this.shown;
    const budget = this.services.budgetNotice.current;
    this.item.text = `${icon} ${text}`;
    const full = [tooltip, ...(budget ? [`${budget}.`] : []), vscode.l10n.t('Click for account actions.')].join(' ');
    this.item.tooltip = full;
    this.item.accessibilityInformation = { label: vscode.l10n.t({ message: 'Seven Bridges account: {0}', args: [full], comment: ['What a screen reader says for the status-bar item; {0}: its tooltip'] }), role: 'button' };
    this.item.backgroundColor = warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.checking?.abort();
    this.budgetChanged.dispose();
    this.item.dispose();
  }
}

function shortLabel(label: string): string {
  return label.replace(/^Seven Bridges \((.*)\)$/, 'SB $1').replace('Cancer Genomics Cloud', 'CGC').replace('BioData Catalyst', 'BDC');
}

/** The account menu behind the status-bar item. */
export async function accountMenu(): Promise<void> {
  const actions = [
    { label: `$(key) ${commandTitles().setToken}`, command: COMMANDS.setToken },
    { label: `$(globe) ${commandTitles().selectPlatform}`, command: COMMANDS.selectPlatform },
    { label: `$(file) ${commandTitles().importCredentials}`, command: COMMANDS.importCredentials },
    { label: `$(output) ${commandTitles().showLog}`, command: COMMANDS.showLog },
    { label: `$(sign-out) ${commandTitles().signOut}`, command: COMMANDS.signOut },
  ];
  const pick = await vscode.window.showQuickPick(actions, { title: 'Seven Bridges' });
  if (pick) await vscode.commands.executeCommand(pick.command);
}
