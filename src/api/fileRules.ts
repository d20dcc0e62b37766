// The platform's documented rules on file and folder names and on metadata (platform-api.md §9.1), to check a value
// before it is sent and to say what is wrong with it. Pure; no `vscode` import.
import * as l10n from '@vscode/l10n';

export const MAX_NAME_LENGTH = 255;
export const MAX_METADATA_PAIRS = 1000;
export const MAX_METADATA_KEY_BYTES = 100;
export const MAX_METADATA_VALUE_BYTES = 300;

const utf8Bytes = (text: string): number => new TextEncoder().encode(text).length;

/**
 * Why a name would be refused, or undefined: empty, a `/` in it, longer than 255 characters, or (a folder's)
 * starting with `__`. The platform may refuse more (its character set for folders is not settled): show its reason then.
 */
export function nameProblem(name: string, type: 'file' | 'folder'): string | undefined {
  if (name.trim() === '') return l10n.t('A name cannot be empty.');
  if (name.includes('/')) return l10n.t('A name cannot contain "/".');
  if (name.length > MAX_NAME_LENGTH) return l10n.t('A name has at most {0} characters ({1} given).', MAX_NAME_LENGTH, name.length);
  if (type === 'folder' && name.startsWith('__')) return l10n.t('A folder name cannot start with "__".');
  return undefined;
}

/**
 * Why a file's metadata would be refused, or undefined: more than 1,000 pairs, an empty key, a key over 100 bytes or
 * a value over 300 bytes (UTF-8). Keys are case-sensitive; a null value is ignored by the platform.
 */
export function metadataProblem(metadata: Readonly<Record<string, string | null>>): string | undefined {
  const pairs = Object.entries(metadata).filter(([, value]) => value !== null);
  if (pairs.length > MAX_METADATA_PAIRS) return l10n.t('A file has at most {0} metadata fields ({1} given).', MAX_METADATA_PAIRS.toLocaleString('en-US'), pairs.length.toLocaleString('en-US'));
  for (const [key, value] of pairs) {
    if (key === '') return l10n.t('A metadata field needs a name.');
    if (utf8Bytes(key) > MAX_METADATA_KEY_BYTES) return l10n.t('The metadata field name "{0}" is {1} bytes long; at most {2}.', shorten(key), utf8Bytes(key), MAX_METADATA_KEY_BYTES);
    if (utf8Bytes(value!) > MAX_METADATA_VALUE_BYTES) return l10n.t('The value of metadata field "{0}" is {1} bytes long; at most {2}.', shorten(key), utf8Bytes(value!), MAX_METADATA_VALUE_BYTES);
  }
  return undefined;
}

function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
