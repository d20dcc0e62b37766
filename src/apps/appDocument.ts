// What a push sends (Push App Revision…) and how it is found again: the fields the platform sets on every revision it
// serves (never sent, never compared), and whether a revision on the platform holds what a push sent. The write path
// holds this (dist/main.js): keep it small, and free of YAML (the text of a document is cwlText.ts's). No `vscode`.
import type { RawApp } from '../api/apps';

/**
 * What the platform writes into every revision it serves, whatever was posted (platform-api.md §14): kept in a pulled
 * file (`sbg:revision` says where it came from), never sent, never part of a diff.
 */
export const SERVER_FIELDS = [
  'sbg:id', 'sbg:revision', 'sbg:latestRevision', 'sbg:project', 'sbg:createdBy', 'sbg:createdOn', 'sbg:modifiedBy', 'sbg:modifiedOn',
  'sbg:revisionsInfo', 'sbg:validationErrors', 'sbg:contributors', 'sbg:content_hash', 'sbg:copyOf', 'sbg:latestRevisionId', 'sbg:image_url',
] as const;

/** The document without the fields the platform sets: what a push sends, and what a diff compares. */
export function withoutServerFields(cwl: RawApp): RawApp {
  const out: RawApp = { ...cwl };
  for (const key of SERVER_FIELDS) delete out[key];
  return out;
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
