import * as vscode from 'vscode';
import { PLATFORMS } from '../api/endpoint';
import type { Services } from '../services';
import { requestLogger } from '../ui/requestLog';
import type { authCommands, pickEndpoint, setToken, signOut } from './commands';
import { accountLabel, diffSessions, endpointScope, endpointsToList, isEmptyDiff, mayCreateSessionFor, type ProviderSession } from './providerSessions';
import { accountKey, endpointOfTokenKey } from './session';
import { updateUserSetting } from '../ui/settings';
import { checkToken } from './tokenCheck';
import { readState, STATE, writeState } from '../keys/state';

export const AUTH_PROVIDER_ID = 'sevenbridges';

/** What sign-in loads on first use (dist/features.js): its commands, and the sign-in and sign-out the provider runs. */
export interface AuthOnFirstUse {
  authCommands: typeof authCommands;
  pickEndpoint: typeof pickEndpoint;
  setToken: typeof setToken;
  signOut: typeof signOut;
}
export const AUTH_PROVIDER_LABEL = 'Seven Bridges';
/** A token that could not be checked (offline, say) is asked about again after this long, not on every listing. */
const RECHECK_AFTER_MS = 60_000;

/**
 * What is known about one endpoint's token. The username is kept for as long as the token is unchanged, so a
 * check that fails for a network reason never takes a listed session away; only a rejection (401) does.
 */
interface TokenOwner {
  readonly token: string;
  username?: string;
  rejected?: boolean;
  failedAt?: number;
  checking?: Promise<void>;
}

/**
 * The Accounts menu's view of the sign-in: one session per endpoint with a token (stored, or SB_AUTH_TOKEN), named
 * after its user. It adds no sign-in of its own: createSession is Set Authentication Token, removeSession is Sign
 * Out, and the tokens stay in `Session`. VS Code asks the user before another extension gets a session.
 */
export class SevenBridgesAuthProvider implements vscode.AuthenticationProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.changed.event;
  private listed: ProviderSession[] = [];
  private listing: Promise<ProviderSession[]> = Promise.resolve([]);
  private readonly owners = new Map<string, TokenOwner>();
  /** The endpoint of the sign-in offer's own ask while it is on its way to VS Code and back (see offerSignIn). */
  private offering: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  /** `load` gives the sign-in's and sign-out's code (dist/features.js), loaded when VS Code first asks for either. */
  constructor(
    private readonly services: Services,
    private readonly load: () => Promise<AuthOnFirstUse>,
  ) {
    const { context, session } = services;
    this.disposables.push(
      this.changed,
      // Another window's sign-in or sign-out reaches this one here too.
      context.secrets.onDidChange((e) => {
        const endpoint = endpointOfTokenKey(e.key);
        if (endpoint) void this.remember(endpoint).then(() => this.refresh());
      }),
      session.onDidChange(() => void this.refresh()),
      session.onDidChangeUsername(() => void this.refresh()),
    );
  }

  async getSessions(scopes: readonly string[] | undefined, options?: vscode.AuthenticationProviderSessionOptions): Promise<vscode.AuthenticationSession[]> {
    const endpoint = this.scopeEndpoint(scopes ?? []);
    const sessions = await this.refresh();
    if (endpoint && endpoint === this.offering) return [];
    return sessions.filter((s) => (!endpoint || s.id === endpoint) && (!options?.account || options.account.id === s.account.id)).map(forVsCode);
  }

  /** Set Authentication Token, for the platform the scopes name or the one the user picks. */
  async createSession(scopes: readonly string[]): Promise<vscode.AuthenticationSession> {
    const { session } = this.services;
    const asked = this.scopeEndpoint(scopes);
    if (asked && !this.mayCreateSessionFor(asked)) {
      throw new Error(
        vscode.l10n.t(
          'Seven Bridges does not sign in to {0} on request: only a known platform, the endpoint in use or a custom endpoint already signed in to may be asked for. Choose it with Seven Bridges: Select Platform first.',
          asked,
        ),
      );
    }
    const { pickEndpoint, setToken } = await this.load();
    const endpoint = asked ?? (await pickEndpoint(session.endpoint, vscode.l10n.t('Seven Bridges: Sign In: Choose the Platform')));
    if (!endpoint) throw new vscode.CancellationError();
    const username = await setToken(this.services, endpoint);
    if (!username) throw new vscode.CancellationError();
    await this.remember(endpoint);
    // Signed out where the views look: they follow the new sign-in. Signed in there: they stay where they are.
    if (endpoint !== session.endpoint && session.state === 'signedOut') {
      await updateUserSetting('apiEndpoint', endpoint);
      await session.reload();
    }
    const made = (await this.refresh()).find((s) => s.id === endpoint);
    if (!made) throw new Error(vscode.l10n.t("Signed in as {0}, but the token for {1} could not be read back from VS Code's secret storage.", username, endpoint));
    return forVsCode(made);
  }

  /**
   * Sign Out of that session's endpoint (a token from SB_AUTH_TOKEN stays, and Sign Out says so). Throws when the
   * token could not be deleted, so that VS Code does not show the account as signed out while its token stays.
   */
  async removeSession(sessionId: string): Promise<void> {
    const signedOut = await (await this.load()).signOut(this.services, sessionId);
    await this.refresh();
    if (!signedOut) throw new Error(vscode.l10n.t("Not signed out of {0}: its token could not be deleted from VS Code's secret storage.", sessionId));
  }

  /**
   * Asks VS Code for a session of `endpoint` without creating one, so that the Accounts menu offers "Sign in with
   * Seven Bridges to use Seven Bridges". A sign-in (Set Authentication Token, say) made while the ask is on its way
   * must not be found by it: VS Code would turn the ask into a "Grant access" request for this extension that stays
   * in the menu. So the ask finds no session, and when one was made meanwhile, telling VS Code of it again drops the
   * sign-in entry the ask left.
   */
  async offerSignIn(endpoint: string): Promise<void> {
    this.offering = endpoint;
    try {
      await vscode.authentication.getSession(AUTH_PROVIDER_ID, [endpoint], {}).then(undefined, () => undefined);
    } finally {
      this.offering = undefined;
    }
    const made = (await this.refresh()).find((s) => s.id === endpoint);
    if (made) this.changed.fire({ added: [forVsCode(made)], removed: [], changed: [] });
  }

  /** Lists the sessions again and tells VS Code what changed; one listing at a time, so no change is told twice. */
  refresh(): Promise<ProviderSession[]> {
    const next = this.listing.then(async () => {
      const sessions = await this.list();
      const diff = diffSessions(this.listed, sessions);
      this.listed = sessions;
      if (!isEmptyDiff(diff)) this.changed.fire({ added: diff.added.map(forVsCode), removed: diff.removed.map(forVsCode), changed: diff.changed.map(forVsCode) });
      return sessions;
    });
    this.listing = next.catch(() => this.listed);
    return next;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private async list(): Promise<ProviderSession[]> {
    const { session } = this.services;
    const endpoints = endpointsToList(
      PLATFORMS.map((p) => p.apiBase),
      session.endpoint,
      session.environmentEndpoint,
      readState(this.services.context.globalState, STATE.endpointsWithTokens) ?? [],
    );
    const sessions: ProviderSession[] = [];
    for (const endpoint of endpoints) {
      const found = await session.tokenFor(endpoint);
      if (!found) continue;
      // Not listed: a rejected token, and one never checked successfully (offline since it was stored) whose user
      // is unknown; an account is named after its user, and VS Code keeps other extensions' consent by that name.
      const username = await this.usernameFor(endpoint, found.token);
      if (!username) continue;
      sessions.push({
        id: endpoint,
        accessToken: found.token,
        account: { id: accountKey(endpoint, username), label: accountLabel(username, endpoint) },
        scopes: [endpoint],
        fromEnvironment: found.fromEnvironment,
      });
    }
    return sessions;
  }

  /**
   * Who the token belongs to: known already for the endpoint in use, else asked once per token (GET /v2/user) and
   * then kept while the token is unchanged. Undefined when the platform rejected the token, or when it was never
   * checked successfully (asked again after RECHECK_AFTER_MS).
   */
  private async usernameFor(endpoint: string, token: string): Promise<string | undefined> {
    const { session, log } = this.services;
    let owner = this.owners.get(endpoint);
    if (owner?.token !== token) this.owners.set(endpoint, (owner = { token }));
    if (endpoint === session.endpoint && session.username && (await session.credentials())?.token === token) owner.username = session.username;
    if (owner.username) return owner.username;
    if (owner.rejected) return undefined;
    if (owner.failedAt !== undefined && this.services.clock.now() - owner.failedAt < RECHECK_AFTER_MS) return undefined;
    const entry = owner;
    entry.checking ??= checkToken(endpoint, token, requestLogger(log)).then((check) => {
      entry.checking = undefined;
      if (check.ok) {
        entry.username = check.user.username;
        return;
      }
      entry.rejected = check.rejected;
      entry.failedAt = this.services.clock.now();
      log.warn(`The token for ${endpoint} is not listed in the Accounts menu: ${check.reason}`);
    });
    await entry.checking;
    return entry.username;
  }

  /** The endpoint another extension's scopes name; an invalid one is refused with why. */
  private scopeEndpoint(scopes: readonly string[]): string | undefined {
    const named = endpointScope(scopes);
    if (named.kind === 'invalid') throw new Error(vscode.l10n.t('The scope "{0}" does not name a Seven Bridges API endpoint: {1}', named.scope, named.reason));
    return named.kind === 'endpoint' ? named.endpoint : undefined;
  }

  private mayCreateSessionFor(endpoint: string): boolean {
    const { session, context } = this.services;
    return mayCreateSessionFor(
      endpoint,
      PLATFORMS.map((p) => p.apiBase),
      session.endpoint,
      readState(context.globalState, STATE.endpointsWithTokens) ?? [],
    );
  }

  private async remember(endpoint: string): Promise<void> {
    const { globalState } = this.services.context;
    // Custom endpoints that had a token in some window (SecretStorage cannot list its keys). Never the tokens.
    const remembered = readState(globalState, STATE.endpointsWithTokens) ?? [];
    const hasToken = !!(await this.services.session.tokenFor(endpoint));
    if (hasToken === remembered.includes(endpoint) || PLATFORMS.some((p) => p.apiBase === endpoint)) return;
    await writeState(globalState, STATE.endpointsWithTokens, hasToken ? [...remembered, endpoint] : remembered.filter((e) => e !== endpoint));
  }
}

/** What VS Code and other extensions get: the session without our bookkeeping. */
function forVsCode(s: ProviderSession): vscode.AuthenticationSession {
  return { id: s.id, accessToken: s.accessToken, account: { ...s.account }, scopes: [...s.scopes] };
}
