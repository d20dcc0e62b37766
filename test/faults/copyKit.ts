// The copy side of the fault suite: an emulator and a client whose next POST can be given a fault, a tracker
// and a submitter on one persisted store, and the user's side of copy/flow.ts without the UI.
import * as assert from 'assert';
import nodeFetch from 'node-fetch';
import { ApiError, describeError } from '../../src/api/errors';
import type { FetchLike } from '../../src/api/transport';
import { CopySubmitter, type SubmissionReport } from '../../src/jobs/submitter';
import { JobTracker, type JobDestination } from '../../src/jobs/tracker';
import type { FileRec } from '../emulator';
import { makeClient, makeEmulator, MemoryMemento, record, shown, sleep, waitFor } from './support';

export type PostFault = 'error500' | 'drop' | 'burst429' | 'maintenance' | 'lose' | 'garble' | 'slowLose';

/** A copy setup: emulator, client whose next POST can be given a fault, tracker and submitter on one store. */
export async function copySetup(options: { faults?: { error500Rate?: number; dropRate?: number }; copyStepMs?: number } = {}) {
  const emu = await makeEmulator({ copyStepMs: options.copyStepMs ?? 30, faults: options.faults });
  const postFaults: PostFault[] = [];
  const fetch: FetchLike = async (url, init) => {
    const fault = init.method === 'POST' ? postFaults.shift() : undefined;
    if (!fault) return nodeFetch(url, init);
    const saved = { ...emu.faults };
    if (fault === 'error500') Object.assign(emu.faults, { error500Rate: 1, dropRate: 0 });
    if (fault === 'drop') Object.assign(emu.faults, { dropRate: 1 });
    if (fault === 'garble') Object.assign(emu.faults, { error500Rate: 0, dropRate: 0, malformedRate: 1 });
    if (fault === 'burst429') emu.burst429(1, 1);
    if (fault === 'maintenance') emu.maintenance(60_000);
    if (fault === 'slowLose') Object.assign(emu.faults, { latencyMs: 300 });
    if (fault === 'lose' || fault === 'slowLose') {
      Object.assign(emu.faults, { error500Rate: 0, dropRate: 0 });
      emu.loseNextCopyResponse();
    }
    try {
      return await nodeFetch(url, init);
    } finally {
      Object.assign(emu.faults, saved);
      if (fault === 'maintenance') emu.maintenance(0);
    }
  };
  const client = makeClient(emu.baseUrl, { fetch });
  const store = new MemoryMemento();
  const trackerOptions = { firstDelayMs: 20, intervalMs: 40, maxIntervalMs: 200 };
  const tracker = new JobTracker(client.copyJobs, store, undefined, trackerOptions);
  const submitter = new CopySubmitter(client.copyJobs, tracker, store);
  const project = emu.data.projects.find((p) => p.permissions.write)!;
  const destination: JobDestination = { label: project.name, project: project.id };
  const sources = emu.data.files.filter((f: FileRec) => f.parent !== null && f.type === 'file');
  return { emu, client, store, tracker, submitter, postFaults, destination, sources, trackerOptions };
}

/** Requests the emulator saw for POST /async/files/copy (processed or not) and GET /async/files, from the client's log. */
export function logSince(mark: number): string[] {
  return record.logEntries.slice(mark).map((e) => `${e.method} ${e.path.split('?')[0]}`);
}

/**
 * What the copy command does with a failed call (copy/flow.ts, without the UI): a call that may have been
 * delivered is looked for on the platform first, adopted when found, offered again only when not; a call that
 * was not delivered is offered again at once (after the rate limit's reset). Returns the messages shown.
 */
export async function settle(
  setup: CopySetup,
  first: SubmissionReport,
  where: string,
): Promise<{ messages: string[]; adopted: number; checks: number }> {
  const { submitter, emu } = setup;
  const messages: string[] = [];
  let report = first;
  let adopted = 0;
  let checks = 0;
  for (let round = 0; report.failed && round < 30; round++) {
    const { pending, error, maybeDelivered } = report.failed;
    const items = `${pending.items.length} ${pending.items.length === 1 ? 'item' : 'items'}`;
    if (!maybeDelivered) {
      // "the copy to X (N items) was not submitted: <why>" with Submit Again / Discard.
      messages.push(shown(`${where}: not submitted`, `The copy to ${pending.destination.label} (${items}) was not submitted: ${describeError(error)}`, ['Submit Again']));
      if (error instanceof ApiError && error.isRateLimited && error.resetAt) await sleep(Math.max(0, error.resetAt * 1000 + 1100 - Date.now()));
      report = await submitter.resubmit(report.group);
      continue;
    }
    // "may have been submitted": checked against GET /v2/async/files before anything is offered.
    messages.push(shown(`${where}: may have been submitted`, `The copy to ${pending.destination.label} (${items}) may have been submitted: ${describeError(error)}`, ['Check and Submit Again']));
    assert.ok(pending.maybeDelivered, 'the pending call is marked "may have been submitted"');
    const posts = emu.copyRequests.length + emu.unprocessedCopyRequests.length;
    const mark = record.logEntries.length;
    let check: Awaited<ReturnType<CopySubmitter['findDelivered']>>;
    try {
      check = await submitter.findDelivered(pending);
    } catch (checkError) {
      messages.push(shown(`${where}: check failed`, `Could not check the platform's copy jobs (${describeError(checkError)}); it is kept until it can be checked.`, ['Check and Submit Again']));
      continue;
    }
    checks++;
    assert.ok(logSince(mark).includes('GET /v2/async/files'), `${where}: the check asks GET /v2/async/files`);
    assert.strictEqual(emu.copyRequests.length + emu.unprocessedCopyRequests.length, posts, `${where}: the check sends no POST`);
    assert.notStrictEqual(check.kind, 'ambiguous', `${where}: the check is not ambiguous`);
    if (check.kind === 'found') {
      await submitter.adopt(pending, check.job);
      adopted++;
      if (!submitter.group(report.group).length) {
        report = { ...report, failed: undefined, notSent: [] };
        break;
      }
      report = await submitter.resubmit(report.group);
      continue;
    }
    messages.push(shown(`${where}: not received`, `No new copy job was found on the platform, so it was not received.`, ['Submit Again']));
    report = await submitter.resubmit(report.group);
  }
  assert.strictEqual(report.failed, undefined, `${where}: every call went through`);
  return { messages, adopted, checks };
}

export async function untilFinished(setup: CopySetup, where: string): Promise<void> {
  await waitFor(`${where}: every job FINISHED with its results`, () => setup.tracker.all().every((j) => j.state === 'FINISHED' && (j.result?.length ?? 0) === j.items.length), 30_000);
}


export type CopySetup = Awaited<ReturnType<typeof copySetup>>;
