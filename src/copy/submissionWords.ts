// What a person is told about copy calls that did not go straight through. Pure: no `vscode`.
import type { WriteRecord } from '../write/outbox';
import { plural } from '../util/words';
import { COMMAND_TITLES } from '../keys/commands';

export const SUBMIT_AGAIN = COMMAND_TITLES.submitAgain;
export const DISCARD = 'Discard';
export const SHOW_COPY_JOBS = COMMAND_TITLES.showJobs;

export interface Telling {
  severity: 'error' | 'warning' | 'info';
  text: string;
  actions: string[];
}

/**
 * One message per situation among a copy's calls that are still in the outbox: refused (the user decides),
 * maybe submitted (looked up before anything is sent again), or waiting to be sent by itself.
 */
export function submissionTellings(records: readonly WriteRecord<{ items: unknown[] }>[], destination: string, now: number): Telling[] {
  const tellings: Telling[] = [];
  const items = (rs: readonly WriteRecord<{ items: unknown[] }>[]) => plural(rs.reduce((sum, r) => sum + r.payload.items.length, 0), 'item');
  const notes = (rs: readonly WriteRecord[]) => [...new Set(rs.map((r) => r.note).filter((n): n is string => !!n))].join(' ');

  const failed = records.filter((r) => r.state === 'failed');
  if (failed.length) {
    tellings.push({
      severity: 'error',
      text: `Nothing was copied to ${destination} for ${items(failed)}: ${notes(failed) || 'the platform refused the request.'} Submit it again once that is fixed, or discard it.`,
      actions: [SUBMIT_AGAIN, DISCARD],
    });
  }
  const unsure = records.filter((r) => r.state === 'unsure' || r.state === 'sending');
  if (unsure.length) {
    tellings.push({
      severity: 'warning',
      text: `The copy of ${items(unsure)} to ${destination} may have been submitted (${notes(unsure) || 'no answer came'}). It is being checked on the platform and followed if found: nothing to do, and nothing is sent again until that is known.`,
      actions: [SHOW_COPY_JOBS],
    });
  }
  const waiting = records.filter((r) => r.state === 'queued' && r.notBefore !== undefined && r.notBefore > now);
  if (waiting.length) {
    const at = new Date(Math.max(...waiting.map((r) => r.notBefore!))).toLocaleTimeString();
    tellings.push({
      severity: 'info',
      text: `The copy of ${items(waiting)} to ${destination} was not sent yet: ${notes(waiting) || 'the platform asked to wait.'} It is sent by itself at ${at}; nothing to do.`,
      actions: [SHOW_COPY_JOBS],
    });
  }
  return tellings;
}
