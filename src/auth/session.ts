import * as vscode from 'vscode';
import { checkEndpoint, DEFAULT_ENDPOINT } from '../api/endpoint';
import type { Credentials } from '../api/transport';
import { onSettingChange, userSetting } from '../ui/settings';
import type { Account } from '../write/outbox';

export const accountKey = (endpoint: string, username: string): string => `${endpoint}#${username}`;

const TOKEN_KEY_PREFIX = 'sevenbridges.token:';

const tokenKey = (endpoint: string): string => TOKEN_KEY_PREFIX + endpoint.replace(/\/+$/, '');

/** The endpoint a SecretStorage key holds the token of; undefined for keys that are not tokens. */
export function endpointOfTokenKey(key: string): string | undefined {
  return key.startsWith(TOKEN_KEY_PREFIX) ? key.slice(TOKEN_KEY_PREFIX.length) : undefined;
}

export type SignInState = 'signedOut' | 'signedIn';

/**
 * Who is signed in where: the endpoint (setting, else SB_API_ENDPOINT, else the default) and its token
 * (SecretStorage, one per endpoint, else SB_AUTH_TOKEN when it belongs to that endpoint).
 * The token stays inside this object and the transport's header; it is never logged or shown.
 */
export class Session implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the endpoint or its token changes: what is shown belongs to someone else now. */
  readonly onDidChange = this.changed.event;
  private readonly usernameChanged = new vscode.EventEmitter<void>();
  /** Fires when the username is learned after a token check; nothing else about the sign-in changed. */
  readonly onDidChangeUsername = this.usernameChanged.event;
  private readonly signInChanged = new vscode.EventEmitter<void>();
  /**
   * Fires whenever the endpoint or its token changed, also on the rereads that fire no onDidChange (the first one, the
   * one a request makes): for what only mirrors the sign-in, such as the when-clause context keys.
   */
  readonly onDidChangeSignIn = this.signInChanged.event;
  private cachedToken: { endpoint: string; token: string | undefined } | undefined;
  private userName: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log: Pick<vscode.LogOutputChannel, 'warn'>,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.disposables.push(
      this.changed,
      this.usernameChanged,
      this.signInChanged,
      secrets.onDidChange((e) => {
        if (e.key.startsWith(TOKEN_KEY_PREFIX)) void this.reload();
      }),
      onSettingChange(['apiEndpoint'], () => void this.reload()),
    );
  }

  /** The endpoint in use, normalised; the raw value when it is not acceptable (requests then fail with why). */
  get endpoint(): string {
    // Only the user's own setting counts (the setting is application-scoped): a cloned repository's
    // .vscode/settings.json must not be able to point the token box at a host of its choosing.
    const raw = userSetting('apiEndpoint') ?? this.env.SB_API_ENDPOINT ?? DEFAULT_ENDPOINT;
    const checked = checkEndpoint(raw);
    return checked.ok ? checked.endpoint : raw;
  }

  /** Whether a token is known for the endpoint in use (stored, or from the environment). */
  get state(): SignInState {
    return this.cachedToken?.endpoint === this.endpoint && this.cachedToken.token ? 'signedIn' : 'signedOut';
  }

  /** The username once a token has been checked with GET /v2/user. */
  get username(): string | undefined {
    return this.userName;
  }

  set username(name: string | undefined) {
    if (name === this.userName) return;
    this.userName = name;
    this.usernameChanged.fire();
  }

  /** `endpoint#username` of the account in use, once its username is known. */
  get accountKey(): string | undefined {
    return this.state === 'signedIn' && this.userName ? accountKey(this.endpoint, this.userName) : undefined;
  }

  /**
   * The account in use with its credentials, learning the username (`whoIs`, e.g. GET /v2/user) when it is not
   * known yet; undefined when signed out, or when the token changed while it was asked.
   */
  async account(whoIs: (credentials: Credentials) => Promise<string>): Promise<Account | undefined> {
    const credentials = await this.credentials();
    if (!credentials) return undefined;
    let name = this.userName;
    if (!name) {
      name = await whoIs(credentials);
      const now = await this.credentials();
      if (now?.token !== credentials.token || now.endpoint !== credentials.endpoint) return undefined;
      this.username = name;
    }
    return { key: accountKey(credentials.endpoint, name), credentials };
  }

  /** The token for `endpoint` (stored, else SB_AUTH_TOKEN when it belongs there) and where it came from. */
  async tokenFor(endpoint: string): Promise<{ token: string; fromEnvironment: boolean } | undefined> {
    const stored = await this.storedToken(endpoint);
    if (stored) return { token: stored, fromEnvironment: false };
    const fromEnvironment = this.environmentToken(endpoint);
    return fromEnvironment ? { token: fromEnvironment, fromEnvironment: true } : undefined;
  }

  /** The endpoint SB_AUTH_TOKEN belongs to, when it is set. */
  get environmentEndpoint(): string | undefined {
    if (!this.env.SB_AUTH_TOKEN?.trim()) return undefined;
    const checked = checkEndpoint(this.env.SB_API_ENDPOINT ?? DEFAULT_ENDPOINT);
    return checked.ok ? checked.endpoint : undefined;
  }

  /** Whether the token in use came from SB_AUTH_TOKEN rather than SecretStorage. */
  async tokenFromEnvironment(): Promise<boolean> {
    return !(await this.storedToken(this.endpoint)) && this.environmentToken(this.endpoint) !== undefined;
  }

  async credentials(): Promise<Credentials | undefined> {
    const endpoint = this.endpoint;
    if (this.cachedToken?.endpoint !== endpoint) await this.reload(false);
    const token = this.cachedToken?.token;
    return token ? { endpoint, token } : undefined;
  }

  async storeToken(endpoint: string, token: string): Promise<void> {
    await this.secrets.store(this.keyFor(endpoint), token);
    await this.reload();
  }

  async deleteToken(endpoint: string): Promise<void> {
    await this.secrets.delete(this.keyFor(endpoint));
    await this.reload();
  }

  /** Re-reads the token for the endpoint in use and tells listeners. */
  async reload(fire = true): Promise<void> {
    const endpoint = this.endpoint;
    const token = (await this.storedToken(endpoint)) || this.environmentToken(endpoint);
    const changed = this.cachedToken?.endpoint !== endpoint || this.cachedToken.token !== token;
    this.cachedToken = { endpoint, token };
    if (changed) this.userName = undefined;
    if (changed) this.signInChanged.fire();
    if (fire && changed) this.changed.fire();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  /** The stored token; an unreadable secret store (no OS keychain, say) counts as none, and is logged. */
  private async storedToken(endpoint: string): Promise<string | undefined> {
    try {
      return await this.secrets.get(this.keyFor(endpoint));
    } catch (error) {
      this.log.warn(`Cannot read VS Code's secret storage: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  private keyFor(endpoint: string): string {
    return tokenKey(endpoint);
  }

  /** SB_AUTH_TOKEN, only for the endpoint it was given with (SB_API_ENDPOINT, else the default). */
  private environmentToken(endpoint: string): string | undefined {
    const token = this.env.SB_AUTH_TOKEN?.trim();
    if (!token) return undefined;
    const envEndpoint = checkEndpoint(this.env.SB_API_ENDPOINT ?? DEFAULT_ENDPOINT);
    return envEndpoint.ok && envEndpoint.endpoint === endpoint ? token : undefined;
  }
}
