// Secrets in text the product quotes from elsewhere (a tool's log lines in failure-summary.md): the account's token,
// as `redact` finds it, and what reads as a token, key or password by its shape or its label. No `vscode` import.
import * as l10n from '@vscode/l10n';
import { redact } from './errors';

/** Words that label a secret: `token=…`, `--auth-token …`, `"password": "…"`, `X-Amz-Signature=…`. */
const LABEL = String.raw`[A-Za-z0-9_.-]*(?:token|secret|passw(?:or)?d|api[_-]?key|access[_-]?key|private[_-]?key|credentials?|signature|auth(?!ors?\b))[A-Za-z0-9_.-]*`;
/** A label, `:` or `=`, the value (quoted or not; a number alone is a count, `tokens: 1200`). */
const LABELLED = new RegExp(String.raw`(${LABEL}["']?\s*[:=]\s*)(["']?)(?!\d+(?![^\s"',;&]))([^\s"',;&]+)`, 'gi');
/** An option that takes a secret: `--token abc`, `-password abc`. */
const OPTION = new RegExp(String.raw`((?:^|\s)-{1,2}${LABEL}\s+)([^\s"',;&-][^\s"',;&]*)`, 'gi');
/** Secrets known by their shape wherever they stand. */
const SHAPES = [
  /\b(?:Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----.*/g,
  // A password in a URL: scheme://user:password@host.
  /(?<=\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:)[^\s/@]+(?=@)/gi,
];

/** What stands where a secret was. */
const mark = (): string => l10n.t({ message: '(redacted)', comment: ['Put where a secret (a token, a key, a password) was in a quoted log line'] });

/** The text with the secrets (the account's token) and whatever looks like a token, key or password replaced. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  const hidden = mark();
  let out = redact(text, secrets);
  // Shapes first: `Authorization: Bearer <token>` is a label whose value starts with a word.
  for (const shape of SHAPES) out = out.replace(shape, hidden);
  out = out.replace(LABELLED, (_all, label: string, quote: string) => `${label}${quote}${hidden}`);
  out = out.replace(OPTION, (_all, option: string) => `${option}${hidden}`);
  return out;
}
