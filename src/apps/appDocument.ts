// An app's CWL as a file of the repository (Pull App…) and as what a push sends (Push App Revision…): the fields the
// platform sets on every revision it serves, the revision a file was pulled from, the text of a document in JSON or
// YAML, and whether a revision on the platform holds what a push sent. No `vscode`.
import type { RawApp } from '../api/apps';
import { loadYaml } from '../util/yaml';

/**
 * What the platform writes into every revision it serves, whatever was posted (platform-api.md §14): kept in a pulled
 * file (`sbg:revision` says where it came from), never sent, never part of a diff.
 */
export const SERVER_FIELDS = [
  'sbg:id', 'sbg:revision', 'sbg:latestRevision', 'sbg:project', 'sbg:createdBy', 'sbg:createdOn', 'sbg:modifiedBy', 'sbg:modifiedOn',
  'sbg:revisionsInfo', 'sbg:validationErrors', 'sbg:contributors', 'sbg:content_hash', 'sbg:copyOf', 'sbg:latestRevisionId', 'sbg:image_url',
] as const;

export type CwlFormat = 'json' | 'yaml';

/** The document without the fields the platform sets: what a push sends, and what a diff compares. */
export function withoutServerFields(cwl: RawApp): RawApp {
  const out: RawApp = { ...cwl };
  for (const key of SERVER_FIELDS) delete out[key];
  return out;
}

/** The revision a pulled document came from (`sbg:revision`), if it says. */
export function pulledRevision(cwl: RawApp): number | undefined {
  const revision = cwl['sbg:revision'];
  return typeof revision === 'number' && Number.isInteger(revision) && revision >= 0 ? revision : undefined;
}

/** `owner/project/app` a pulled document names (`sbg:id`, its revision left out), if it names one. */
export function pulledAppId(cwl: RawApp): string | undefined {
  const id = cwl['sbg:id'];
  if (typeof id !== 'string') return undefined;
  const parts = id.split('/');
  return parts.length >= 3 && parts.slice(0, 3).every((p) => p !== '') ? parts.slice(0, 3).join('/') : undefined;
}

/** The format a file's name or text says: `.json`, or text starting with `{`, is JSON; anything else YAML. */
export function formatOf(fileName: string, text: string): CwlFormat {
  return /\.json$/i.test(fileName) || /^\s*\{/.test(text) ? 'json' : 'yaml';
}

/** A document as the text of a file: JSON indented by 2, or YAML (block style, long lines kept whole). */
export async function renderCwl(cwl: RawApp, format: CwlFormat): Promise<string> {
  if (format === 'json') return `${JSON.stringify(cwl, null, 2)}\n`;
  const yaml = await loadYaml();
  return yaml.stringify(cwl, { lineWidth: 0, aliasDuplicateObjects: false });
}

/** The text of a document, parsed (YAML takes JSON too); a rejection says why it does not read. */
export async function parseCwl(text: string): Promise<unknown> {
  return (await loadYaml()).parse(text) as unknown;
}

/**
 * Whether a revision on the platform holds what a push sent: every field sent is there with the same value, objects
 * compared field by field (the platform may add fields of its own, such as a step's `sbg:` fields), lists item by item.
 * The fields the platform sets are not compared.
 */
export function holdsSent(stored: RawApp, sent: RawApp): boolean {
  return contains(withoutServerFields(stored), withoutServerFields(sent));
}

function contains(stored: unknown, sent: unknown): boolean {
  if (Array.isArray(sent)) return Array.isArray(stored) && stored.length === sent.length && sent.every((item, i) => contains(stored[i], item));
  if (typeof sent === 'object' && sent !== null) {
    if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return false;
    return Object.entries(sent).every(([key, value]) => value === undefined || contains((stored as Record<string, unknown>)[key], value));
  }
  return stored === sent;
}
