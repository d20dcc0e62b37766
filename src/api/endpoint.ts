// Which API endpoints the client accepts, and the platforms it knows. (Platform names are names: not translated.)
import * as l10n from '@vscode/l10n';

export interface Platform {
  /** Stable short name, used in context keys. */
  readonly id: string;
  readonly label: string;
  readonly apiBase: string;
  /** Where a person makes a developer token on that platform. */
  readonly tokenPage: string;
  /** The web front end, for "Open in Browser". */
  readonly webBase: string;
}

export const PLATFORMS: readonly Platform[] = [
  { id: 'sbg-us', label: 'Seven Bridges (AWS US)', apiBase: 'https://api.sbgenomics.com/v2', webBase: 'https://igor.sbgenomics.com', tokenPage: 'https://igor.sbgenomics.com/developer/token' },
  { id: 'sbg-eu', label: 'Seven Bridges (AWS EU)', apiBase: 'https://eu-api.sbgenomics.com/v2', webBase: 'https://eu.sbgenomics.com', tokenPage: 'https://eu.sbgenomics.com/developer/token' },
  { id: 'sbg-gcp', label: 'Seven Bridges (GCP)', apiBase: 'https://gcp-api.sbgenomics.com/v2', webBase: 'https://gcp.sbgenomics.com', tokenPage: 'https://gcp.sbgenomics.com/developer/token' },
  { id: 'cgc', label: 'Cancer Genomics Cloud', apiBase: 'https://cgc-api.sbgenomics.com/v2', webBase: 'https://cgc.sbgenomics.com', tokenPage: 'https://cgc.sbgenomics.com/developer/token' },
  { id: 'cavatica', label: 'Cavatica', apiBase: 'https://cavatica-api.sbgenomics.com/v2', webBase: 'https://cavatica.sbgenomics.com', tokenPage: 'https://cavatica.sbgenomics.com/developer/token' },
  { id: 'bdc', label: 'BioData Catalyst', apiBase: 'https://api.sb.biodatacatalyst.nhlbi.nih.gov/v2', webBase: 'https://platform.sb.biodatacatalyst.nhlbi.nih.gov', tokenPage: 'https://platform.sb.biodatacatalyst.nhlbi.nih.gov/developer/token' },
];

export const DEFAULT_ENDPOINT = PLATFORMS[0].apiBase;

export type EndpointCheck = { ok: true; endpoint: string } | { ok: false; reason: string };

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Checks an API base URL and returns it normalised (no trailing slash).
 * https anywhere; plain http only on loopback (an emulator), since the token would travel in clear text.
 */
export function checkEndpoint(input: string): EndpointCheck {
  const text = input.trim();
  if (!text) return { ok: false, reason: l10n.t('The API endpoint is empty.') };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: l10n.t('"{0}" is not a URL. Expected something like https://api.sbgenomics.com/v2.', text) };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: l10n.t('The API endpoint must use https, not {0}.', url.protocol.replace(':', '')) };
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return { ok: false, reason: l10n.t('Plain http is refused for {0}: the token would travel unencrypted. Use https.', url.hostname) };
  }
  if (url.username || url.password) return { ok: false, reason: l10n.t('The API endpoint must not contain a user name or password.') };
  if (url.search || url.hash) return { ok: false, reason: l10n.t('The API endpoint must not contain a query or a fragment.') };
  return { ok: true, endpoint: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}

export function platformFor(endpoint: string): Platform | undefined {
  const normalized = endpoint.replace(/\/+$/, '');
  return PLATFORMS.find((p) => p.apiBase === normalized);
}

/** A short name for the endpoint in use: the platform's label, or the host. */
export function endpointLabel(endpoint: string): string {
  const platform = platformFor(endpoint);
  if (platform) return platform.label;
  try {
    return new URL(endpoint).host;
  } catch {
    return endpoint;
  }
}

/** True when `url` is on the same origin (scheme, host, port) as `endpoint`: only there may the token go. */
export function sameOrigin(url: string, endpoint: string): boolean {
  try {
    return new URL(url).origin === new URL(endpoint).origin;
  } catch {
    return false;
  }
}
