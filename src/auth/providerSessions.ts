// What the authentication provider lists, without `vscode`: which endpoints to look at, how an account is named,
// what changed between two listings. Unit-tested on plain Node.
import { checkEndpoint, endpointLabel } from '../api/endpoint';

/** One signed-in account: a token for an endpoint and the user it belongs to (GET /v2/user). */
export interface ProviderSession {
  /** The endpoint: one session per endpoint, as one token is kept per endpoint. */
  readonly id: string;
  readonly accessToken: string;
  readonly account: { readonly id: string; readonly label: string };
  /**
   * The endpoint again. A caller that wants one platform's session asks with its API base as the scope; VS Code
   * clears an Accounts menu sign-in request once a session arrives whose scopes equal the requested ones.
   */
  readonly scopes: readonly string[];
  /** The token comes from SB_AUTH_TOKEN: deleting the stored one cannot sign it out. */
  readonly fromEnvironment: boolean;
}

/**
 * "rfranklin (Cancer Genomics Cloud)", "rfranklin (127.0.0.1:4567)" for a custom endpoint; the Accounts menu adds
 * " (Seven Bridges)". VS Code remembers which extensions may use an account by this label, so it names the user and
 * the platform and nothing that changes between windows.
 */
export function accountLabel(username: string, endpoint: string): string {
  return `${username} (${endpointLabel(endpoint)})`;
}

/** The endpoints whose tokens could be listed: every known platform, the one in use, the environment's, any remembered. */
export function endpointsToList(platforms: readonly string[], inUse: string, environment: string | undefined, remembered: readonly string[]): string[] {
  const all = [inUse, ...platforms, ...(environment ? [environment] : []), ...remembered].map((e) => e.replace(/\/+$/, ''));
  return [...new Set(all)];
}

export type ScopeEndpoint = { kind: 'none' } | { kind: 'endpoint'; endpoint: string } | { kind: 'invalid'; scope: string; reason: string };

/**
 * The endpoint a scope names (`https://cgc-api.sbgenomics.com/v2`), checked and normalised as a typed endpoint is
 * (lower-case host, no trailing slash; https, or http on loopback only). Any scope with "://" is meant as an
 * endpoint; other scopes are ignored. Scopes come from other extensions: an invalid one is refused, not guessed at.
 */
export function endpointScope(scopes: readonly string[]): ScopeEndpoint {
  const scope = scopes.find((s) => s.includes('://'));
  if (scope === undefined) return { kind: 'none' };
  const check = checkEndpoint(scope);
  return check.ok ? { kind: 'endpoint', endpoint: check.endpoint } : { kind: 'invalid', scope, reason: check.reason };
}

/**
 * Whether another extension may open the token prompt for `endpoint`: a known platform, the endpoint in use, or a
 * custom endpoint that already had a token here. Never a host the user did not choose.
 */
export function mayCreateSessionFor(endpoint: string, platforms: readonly string[], inUse: string, remembered: readonly string[]): boolean {
  return [...platforms, inUse, ...remembered].some((e) => e.replace(/\/+$/, '') === endpoint);
}

export interface SessionsDiff {
  added: ProviderSession[];
  removed: ProviderSession[];
  changed: ProviderSession[];
}

/** What VS Code must be told: sessions that appeared, went away, or got another token or user. */
export function diffSessions(before: readonly ProviderSession[], after: readonly ProviderSession[]): SessionsDiff {
  const old = new Map(before.map((s) => [s.id, s]));
  const now = new Map(after.map((s) => [s.id, s]));
  return {
    added: after.filter((s) => !old.has(s.id)),
    removed: before.filter((s) => !now.has(s.id)),
    changed: after.filter((s) => {
      const was = old.get(s.id);
      return !!was && (was.accessToken !== s.accessToken || was.account.id !== s.account.id || was.account.label !== s.account.label);
    }),
  };
}

export const isEmptyDiff = (d: SessionsDiff): boolean => !d.added.length && !d.removed.length && !d.changed.length;
