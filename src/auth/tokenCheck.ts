import * as l10n from '@vscode/l10n';
import { SbClient } from '../api/client';
import { ApiError, describeError } from '../api/errors';
import type { RequestLogEntry } from '../api/transport';
import type { User } from '../api/types';

export type TokenCheck = { ok: true; user: User } | { ok: false; reason: string; rejected: boolean };

/** The token's shape as far as we can tell without asking: no whitespace, a plausible length. */
export function checkTokenShape(token: string): string | undefined {
  if (!token) return l10n.t("Paste the authentication token from the platform's developer page.");
  if (/\s/.test(token)) return l10n.t('A token has no spaces or line breaks.');
  // It travels in an HTTP header, which holds visible ASCII only (a typographic quote or dash pasted with it would not).
  if (/[^\x21-\x7e]/.test(token)) return l10n.t('A token has only letters, digits and plain punctuation: this one has other characters (pasted from formatted text?).');
  if (token.length < 16 || token.length > 256) return l10n.t('A token is usually 32 characters; this one has {0}.', token.length);
  return undefined;
}

/** Asks the platform who the token belongs to (GET /v2/user), without storing it anywhere. */
export async function checkToken(endpoint: string, token: string, onRequest?: (entry: RequestLogEntry) => void): Promise<TokenCheck> {
  const client = new SbClient({ credentials: async () => ({ endpoint, token }), onRequest, maxRetries: 1, timeoutMs: 20_000 });
  try {
    return { ok: true, user: await client.user() };
  } catch (error) {
    const rejected = error instanceof ApiError && error.isUnauthorized;
    const reason = rejected ? l10n.t('The platform rejected this token ({0}). Check that it belongs to this platform and has not been revoked.', endpoint) : describeError(error);
    return { ok: false, reason, rejected };
  }
}
