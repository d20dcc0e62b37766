// The official clients' credentials file (~/.sevenbridges/credentials): INI sections, one per profile,
// each with `api_endpoint` and `auth_token`. Pure parsing, so it is unit-tested without VS Code.

export interface CredentialsProfile {
  name: string;
  endpoint: string | undefined;
  token: string | undefined;
  /** Line of the section header, 1-based. */
  line: number;
}

export interface CredentialsProblem {
  line: number;
  message: string;
}

export interface ParsedCredentials {
  profiles: CredentialsProfile[];
  problems: CredentialsProblem[];
}

export function parseCredentialsFile(text: string): ParsedCredentials {
  const profiles: CredentialsProfile[] = [];
  const problems: CredentialsProblem[] = [];
  let current: CredentialsProfile | undefined;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const content = raw.trim();
    if (!content || content.startsWith('#') || content.startsWith(';')) return;
    const section = /^\[\s*([^\]]*?)\s*\]$/.exec(content);
    if (section) {
      if (!section[1]) {
        problems.push({ line, message: 'A section header without a profile name.' });
        current = undefined;
        return;
      }
      current = { name: section[1], endpoint: undefined, token: undefined, line };
      profiles.push(current);
      return;
    }
    const pair = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(content);
    if (!pair) {
      problems.push({ line, message: `Not a "key = value" line.` });
      return;
    }
    if (!current) {
      problems.push({ line, message: `"${pair[1]}" is outside any [profile] section.` });
      return;
    }
    const key = pair[1].toLowerCase();
    const value = pair[2].trim();
    if (key === 'api_endpoint') current.endpoint = value || undefined;
    else if (key === 'auth_token') current.token = value || undefined;
  });
  for (const profile of profiles) {
    const missing = [!profile.endpoint && 'api_endpoint', !profile.token && 'auth_token'].filter(Boolean);
    if (missing.length) problems.push({ line: profile.line, message: `Profile "${profile.name}" has no ${missing.join(' or ')}.` });
  }
  return { profiles, problems };
}

/** Profiles that have both an endpoint and a token. */
export function usableProfiles(parsed: ParsedCredentials): (CredentialsProfile & { endpoint: string; token: string })[] {
  return parsed.profiles.filter((p): p is CredentialsProfile & { endpoint: string; token: string } => !!p.endpoint && !!p.token);
}
