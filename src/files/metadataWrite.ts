// Metadata as a write: the whole set replaced (`PUT /v2/files/{id}/metadata`), idempotent, found by reading the set
// back (asked: done; as before, kept in the payload: not done; else someone else's change); and the JSON a person
// saves, checked before anything is sent. No `vscode` import.
import * as l10n from '@vscode/l10n';
import { ApiError } from '../api/errors';
import type { FilesApi } from '../api/files';
import { metadataProblem } from '../api/fileRules';
import { WRITE_KINDS } from '../keys/writes';
import { byState, type WriteKind } from '../write/kinds';
import { noLongerThere } from './managedItems';
import { isObject, text, type FilesWriteApi } from './writeParts';

export interface MetadataPayload {
  id: string;
  name: string;
  /** the whole set after the change (fields left out are removed) */
  metadata: Record<string, string>;
  /** the set before it, as read (absent in records of older versions): still so after a lost answer, it was not replaced */
  before?: Record<string, unknown>;
}

/** Two sets of metadata hold the same fields with the same values (a field empty or null is no field). */
const sameMetadata = (a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>) => {
  const filled = (m: Readonly<Record<string, unknown>>) => Object.entries(m).filter(([, v]) => v !== null && v !== undefined && v !== '');
  const other = new Map(filled(b));
  const set = filled(a);
  return set.length === other.size && set.every(([k, v]) => other.has(k) && JSON.stringify(other.get(k)) === JSON.stringify(v));
};

export function metadataWrite(files: FilesWriteApi & Pick<FilesApi, 'metadata' | 'replaceMetadata'>): WriteKind<MetadataPayload, undefined, Record<string, unknown>> {
  return {
    name: WRITE_KINDS.metadata,
    idempotent: true,
    identity: {
      by: 'state',
      async read(record, credentials) {
        let now: Record<string, unknown> | undefined;
        try {
          now = await files.metadata(record.payload.id, { credentials });
        } catch (error) {
          if (!(error instanceof ApiError && error.status === 404)) throw error;
        }
        return byState(now && { value: now, outcome: now }, record.payload.metadata, record.payload.before, sameMetadata, {
          notYet: () => l10n.t('Its metadata is not changed yet.'),
          changed: () => l10n.t('Its metadata is neither what it was nor what was saved: someone else changed it since.'),
          gone: noLongerThere(record.payload.name),
        });
      },
    },
    isPayload: (p): p is MetadataPayload => isObject(p) && text(p.id) && text(p.name) && isObject(p.metadata) && Object.values(p.metadata).every(text) && (p.before === undefined || isObject(p.before)),
    isOutcome: isObject,
    send: (record, credentials) => files.replaceMetadata(record.payload.id, record.payload.metadata, { credentials }),
    keep: (metadata) => metadata,
    finish: () => undefined,
    describe: (p) => l10n.t('Metadata of "{0}"', p.name),
  };
}

/**
 * The metadata a person saved as JSON: an object of text values (a field left out, or null, is removed), checked
 * against the platform's rules; or why it would not do, in words.
 */
export function parseMetadata(json: string): { metadata: Record<string, string> } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { problem: l10n.t('The metadata is not JSON: {0}', (error as Error).message) };
  }
  if (!isObject(value) || Array.isArray(value)) return { problem: l10n.t('The metadata is a JSON object of fields and their values, as {"sample_id": "S1"}.') };
  const metadata: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === null) continue;
    if (typeof v !== 'string') return { problem: l10n.t('The value of "{0}" is not text: put it in quotes ("{1}").', key, JSON.stringify(v)) };
    metadata[key] = v;
  }
  const problem = metadataProblem(metadata);
  return problem ? { problem } : { metadata };
}
