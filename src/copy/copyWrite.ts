// The copy call as a write (ARCHITECTURE.md, "Writes"): an async file job (jobs/jobWrite.ts) sent with
// `POST /v2/async/files/copy`; not idempotent (sent twice, it copies twice). After a lost answer its job is looked for
// among the jobs that appeared since the send (write/asyncJobs.ts), and adopted only when its results match what was
// asked, item by item. Paced to the API budget: a copy of many calls waits for the reset rather than spend the share
// kept for the user. No `vscode` import.
import * as l10n from '@vscode/l10n';
import type { FilesApi } from '../api/files';
import type { Credentials } from '../api/transport';
import type { AsyncJob } from '../api/types';
import { asyncJobWrite, type AsyncJobKind, type AsyncJobParts } from '../jobs/jobWrite';
import type { CopyPayload } from '../jobs/copyRequests';
import { WRITE_KINDS } from '../keys/writes';
import { itemCount } from '../util/words';
import type { JobSnapshot } from '../write/asyncJobs';
import type { WriteRecord } from '../write/records';

export type CopyRecord = WriteRecord<CopyPayload, JobSnapshot, AsyncJob>;

export function copyWrite(parts: AsyncJobParts & { files: Pick<FilesApi, 'get'> }): AsyncJobKind<CopyPayload> {
  return asyncJobWrite<CopyPayload>(
    {
      name: WRITE_KINDS.copy,
      call: 'copy',
      paced: true,
      matches: async (record, job, credentials) => matchCopy(record.payload, await sourceNames(parts.files, record.payload, credentials), job),
      isPayload: (payload): payload is CopyPayload => {
        const p = payload as CopyPayload | undefined;
        return (
          !!p &&
          typeof p === 'object' &&
          Array.isArray(p.items) &&
          p.items.every((item) => !!item && typeof item === 'object' && typeof item.file === 'string') &&
          !!p.destination &&
          typeof p.destination.label === 'string' &&
          typeof p.destination.project === 'string'
        );
      },
      shown: (payload) => ({ destination: payload.destination, sourceNames: payload.sourceNames }),
      describe: (payload) => l10n.t({ message: 'Copy {0} to {1}', args: [itemCount(payload.items.length), payload.destination.label], comment: ['{0}: "3 items"; {1}: the destination'] }),
    },
    parts,
  );
}

/** The sources' names: as recorded, else read from the platform (only after a lost answer: a rare path). */
async function sourceNames(files: Pick<FilesApi, 'get'>, payload: CopyPayload, credentials: Credentials): Promise<Record<string, string>> {
  const names: Record<string, string> = { ...payload.sourceNames };
  for (const item of payload.items) {
    if (item.name || names[item.file] || names[item.file.toLowerCase()]) continue;
    try {
      names[item.file] = (await files.get(item.file, { credentials })).name;
    } catch {
      // A source that cannot be read has an error as its result: it neither confirms nor refutes.
    }
  }
  return names;
}

/**
 * Whether a job's results answer for a copy call, item by item in request order: `no` when any result is a copy
 * elsewhere or under another name, `yes` when every item has its result and at least one copy confirms the
 * call by name and place, `maybe` while results are missing (a job fills them as it goes, or only at the end).
 */
export function matchCopy(payload: CopyPayload, names: Record<string, string>, job: AsyncJob): 'yes' | 'no' | 'maybe' {
  const result = job.result ?? [];
  const { items, destination } = payload;
  if (result.length > items.length) return 'no';
  let confirmed = 0;
  for (let i = 0; i < result.length; i++) {
    const copy = result[i].resource;
    if (!copy) continue;
    if (copy.project !== undefined && copy.project !== destination.project) return 'no';
    if (destination.parent && copy.parent !== undefined && copy.parent !== destination.parent) return 'no';
    const wanted = items[i].name || names[items[i].file] || names[items[i].file.toLowerCase()];
    if (!wanted) continue;
    if (copy.name !== wanted && !new RegExp(`^\\d+_${escapeRegExp(wanted)}$`).test(copy.name)) return 'no';
    confirmed++;
  }
  return result.length === items.length && confirmed > 0 ? 'yes' : 'maybe';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
