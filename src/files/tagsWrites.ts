// Tags as writes: of one file (`PUT /v2/files/{id}/tags`) and of many in one bulk edit (`POST /v2/bulk/files/edit`,
// 100 files a call); both set each file's whole list (idempotent), found by state: the list asked shows, done; the
// list from before (kept in the payload), not done; another, someone else's change. And their planning: each file's
// new list from a selection's edit, the split at the per-call limit, what a bulk edit did not set. No `vscode` import.
import * as l10n from '@vscode/l10n';
import type { BulkFilesApi } from '../api/bulkFiles';
import { MAX_BULK_FILES } from '../api/bulkFiles';
import type { BulkFileItem, FileRecord } from '../api/types';
import { WRITE_KINDS } from '../keys/writes';
import { count } from '../util/words';
import { byState, type Lookup, type WriteKind } from '../write/kinds';
import { noLongerThere } from './managedItems';
import { isObject, recordOrGone, text, type FilesWriteApi } from './writeParts';

export interface TagsPayload {
  id: string;
  name: string;
  /** the whole tag list after the change */
  tags: string[];
  /** the list before it (absent in records of older versions): still so after a lost answer, it was not changed */
  before?: string[];
}

const sameTags = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().every((t, i) => t === [...b].sort()[i]);
const isTags = (value: unknown): value is string[] => Array.isArray(value) && value.every(text);
const isTagsPayload = (p: unknown): p is TagsPayload => isObject(p) && text(p.id) && text(p.name) && isTags(p.tags) && (p.before === undefined || isTags(p.before));
const tagsChanged = (tags: readonly string[]): string =>
  tags.length ? l10n.t('Its tags are {0} now: someone else changed them since.', tags.map((t) => `"${t}"`).join(', ')) : l10n.t('It has no tags now: someone else removed them since.');

export function tagsWrite(files: FilesWriteApi): WriteKind<TagsPayload, undefined, string[]> {
  return {
    name: WRITE_KINDS.tags,
    idempotent: true,
    identity: {
      by: 'state',
      async read(record, credentials) {
        const now = await recordOrGone(files, record.payload.id, credentials);
        return byState(now && { value: now.tags ?? [], outcome: now.tags ?? [] }, record.payload.tags, record.payload.before, sameTags, {
          notYet: () => l10n.t('Its tags are not changed yet.'),
          changed: tagsChanged,
          gone: noLongerThere(record.payload.name),
        });
      },
    },
    isPayload: isTagsPayload,
    isOutcome: isTags,
    send: (record, credentials) => files.setTags(record.payload.id, record.payload.tags, { credentials }),
    keep: (tags) => tags,
    finish: () => undefined,
    describe: (p) => l10n.t('Tags of "{0}"', p.name),
  };
}

// --- Tags of many files in one bulk edit (100 a call): idempotent (sets each list); found by reading them back. ---

export interface BulkTagsPayload {
  /** each file's whole tag list after the change */
  items: TagsPayload[];
}

export function bulkTagsWrite(bulk: Pick<BulkFilesApi, 'get' | 'edit'>): WriteKind<BulkTagsPayload, undefined, BulkFileItem[]> {
  return {
    name: WRITE_KINDS.bulkTags,
    idempotent: true,
    identity: {
      by: 'state',
      /**
       * File by file, by the rule of the tags of one file: those done are left alone, those still with their tags from
       * before are sent again (only they: the platform may have applied a call to some of its files), and one changed
       * by someone else since is not overwritten: the person decides for those. A file gone has nothing to set.
       */
      async read(record, credentials): Promise<Lookup<BulkFileItem[], BulkTagsPayload>> {
        const now = await bulk.get(record.payload.items.map((i) => i.id), { credentials });
        const there = new Map(now.filter((r) => r.resource).map((r) => [r.resource!.id.toLowerCase(), r.resource!.tags ?? []]));
        if (!there.size) return { unknown: l10n.t('None of the {0} files can be read.', count(now.length)) };
        const notYet: TagsPayload[] = [];
        const changed: TagsPayload[] = [];
        for (const item of record.payload.items) {
          const current = there.get(item.id.toLowerCase());
          if (current === undefined || sameTags(current, item.tags)) continue;
          (item.before !== undefined && sameTags(current, item.before) ? notYet : changed).push(item);
        }
        if (changed.length) {
          const named = changed.length === 1 ? l10n.t('The tags of "{0}" were changed by someone else since.', changed[0].name) : l10n.t('The tags of {0} of the files were changed by someone else since.', count(changed.length));
          return { changed: named, rest: { items: [...notYet, ...changed] } };
        }
        if (notYet.length) return { absent: l10n.t('The tags of {0} of the files are not changed yet: only those are sent again.', count(notYet.length)), rest: { items: notYet } };
        return { found: now };
      },
    },
    isPayload: (p): p is BulkTagsPayload => isObject(p) && Array.isArray(p.items) && p.items.length > 0 && p.items.every(isTagsPayload),
    isOutcome: (items): items is BulkFileItem[] => Array.isArray(items),
    send: (record, credentials) => bulk.edit(record.payload.items.map((i) => ({ id: i.id, tags: i.tags })), { credentials }),
    keep: (items) => items.map((r) => (r.resource ? { resource: { id: r.resource.id, name: r.resource.name, tags: r.resource.tags } as FileRecord } : { error: r.error! })),
    finish: () => undefined,
    describe: (p) => l10n.t('Tags of {0} files', count(p.items.length)),
  };
}

/** Tags of many files: one bulk edit per 100 files (the platform's limit per call). */
export function planBulkTags(payloads: readonly TagsPayload[], max = MAX_BULK_FILES): BulkTagsPayload[] {
  const calls: BulkTagsPayload[] = [];
  for (let i = 0; i < payloads.length; i += max) calls.push({ items: payloads.slice(i, i + max) });
  return calls;
}

/**
 * The files a bulk edit did not leave with the tags asked for, though it answered for them (a platform that merges
 * the tags given into the list rather than replacing it: a tag removed stays): sent again one by one, with PUT.
 */
export function tagsNotTaken(payloads: readonly TagsPayload[], answered: readonly BulkFileItem[]): TagsPayload[] {
  const now = new Map(answered.filter((r) => r.resource).map((r) => [r.resource!.id.toLowerCase(), r.resource!.tags]));
  return payloads.filter((p) => {
    const tags = now.get(p.id.toLowerCase());
    return tags !== undefined && !sameTags(tags ?? [], p.tags);
  });
}


/** Why a typed tag would not do, or undefined: empty, or a comma in it (taken for two tags by people and tools alike). */
export function tagProblem(tag: string): string | undefined {
  if (tag.trim() === '') return l10n.t('A tag cannot be empty.');
  if (tag.includes(',')) return l10n.t('A tag cannot contain a comma ("{0}"): add each tag on its own.', tag);
  return undefined;
}

/**
 * Tags across a selection: each file's new list is its own with the tags to add and without those to remove; files
 * whose list does not change are left out (nothing sent for them).
 */
export function planTags(files: readonly { id: string; name: string; tags: readonly string[] }[], add: readonly string[], remove: readonly string[]): TagsPayload[] {
  const removing = new Set(remove);
  return files.flatMap((file) => {
    const next = [...new Set([...file.tags.filter((t) => !removing.has(t)), ...add.filter((t) => !removing.has(t))])];
    return sameTags(next, file.tags) ? [] : [{ id: file.id, name: file.name, tags: next, before: [...file.tags] }];
  });
}

/**
 * The tags checked in Edit Tags… once the typed text changed: those checked before that are still offered, and the
 * new tag typed (checked as it appears: typing a tag and pressing Enter adds it; unchecked, it is left out).
 */
export function checkedTags(offered: readonly string[], before: readonly string[], typed: string | undefined): string[] {
  return offered.filter((tag) => before.includes(tag) || (tag === typed && !tagProblem(tag)));
}

/** The tags in use across files, most used first, each with how many of the files have it. */
export function tagsInUse(files: readonly { tags: readonly string[] }[]): { tag: string; files: number }[] {
  const counts = new Map<string, number>();
  for (const file of files) for (const tag of new Set(file.tags)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts.entries()].map(([tag, files]) => ({ tag, files })).sort((a, b) => b.files - a.files || a.tag.localeCompare(b.tag));
}
