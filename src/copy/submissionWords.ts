// What a person is told about copy calls that did not go straight through. Pure: no `vscode`.
import * as l10n from '@vscode/l10n';
import type { WriteRecord } from '../write/outbox';
import { count } from '../util/words';
import { commandTitles } from '../keys/commands';

// Action titles: functions, so that each is read from the bundle main.ts configures, not at load time.
export const submitAgainAction = (): string => commandTitles().submitAgain;
export const discardAction = (): string => l10n.t('Discard');
export const showCopyJobsAction = (): string => commandTitles().showJobs;

export interface Telling {
  severity: 'error' | 'warning' | 'info';
  text: string;
  actions: string[];
}

type Records = readonly WriteRecord<{ items: unknown[] }>[];

const itemTotal = (rs: Records): number => rs.reduce((sum, r) => sum + r.payload.items.length, 0);
const notes = (rs: readonly WriteRecord[]): string => [...new Set(rs.map((r) => r.note).filter((n): n is string => !!n))].join(' ');

function refusedText(rs: Records, destination: string): string {
  const n = itemTotal(rs);
  const why = notes(rs) || l10n.t('the platform refused the request.');
  return n === 1
    ? l10n.t('Nothing was copied to {0} for 1 item: {1} Submit it again once that is fixed, or discard it.', destination, why)
    : l10n.t('Nothing was copied to {0} for {1} items: {2} Submit it again once that is fixed, or discard it.', destination, count(n), why);
}

/** A lost answer, said plainly: what did not answer, why (a sentence of its own), and that it is being checked. */
function unsureText(rs: Records, destination: string): string {
  const n = itemTotal(rs);
  const why = notes(rs) || l10n.t('Its answer never came.');
  return n === 1
    ? l10n.t('The platform did not answer the copy of 1 item to {0}. {1} Checking whether it arrived before sending anything again: nothing to do.', destination, why)
    : l10n.t('The platform did not answer the copy of {0} items to {1}. {2} Checking whether it arrived before sending anything again: nothing to do.', count(n), destination, why);
}

/** What the check of copies whose answer was lost found: they had arrived, or they had not and were sent again. */
export function checkedText(found: Records, resent: Records, destination: string): string {
  const sentences: string[] = [];
  const arrived = itemTotal(found);
  const again = itemTotal(resent);
  if (found.length) {
    sentences.push(
      arrived === 1
        ? l10n.t('The copy of 1 item to {0} had arrived: its job is followed in Data Jobs.', destination)
        : l10n.t('The copy of {0} items to {1} had arrived: its job is followed in Data Jobs.', count(arrived), destination),
    );
  }
  if (resent.length) {
    sentences.push(
      again === 1
        ? l10n.t('The copy of 1 item to {0} had not arrived: it was sent again, and the platform took it.', destination)
        : l10n.t('The copy of {0} items to {1} had not arrived: it was sent again, and the platform took it.', count(again), destination),
    );
  }
  return sentences.join(' ');
}

function waitingText(rs: Records, destination: string, at: string): string {
  const n = itemTotal(rs);
  const why = notes(rs) || l10n.t('the platform asked to wait.');
  return n === 1
    ? l10n.t('The copy of 1 item to {0} was not sent yet: {1} It is sent by itself at {2}; nothing to do.', destination, why, at)
    : l10n.t('The copy of {0} items to {1} was not sent yet: {2} It is sent by itself at {3}; nothing to do.', count(n), destination, why, at);
}

/**
 * One message per situation among a copy's calls that are still in the outbox: refused (the user decides),
 * maybe submitted (looked up before anything is sent again), or waiting to be sent by itself.
 */
export function submissionTellings(records: Records, destination: string, now: number): Telling[] {
  const tellings: Telling[] = [];
  const failed = records.filter((r) => r.state === 'failed');
  if (failed.length) tellings.push({ severity: 'error', text: refusedText(failed, destination), actions: [submitAgainAction(), discardAction()] });
  const unsure = records.filter((r) => r.state === 'unsure' || r.state === 'sending');
  if (unsure.length) tellings.push({ severity: 'warning', text: unsureText(unsure, destination), actions: [showCopyJobsAction()] });
  const waiting = records.filter((r) => r.state === 'queued' && r.notBefore !== undefined && r.notBefore > now);
  if (waiting.length) {
    const at = new Date(Math.max(...waiting.map((r) => r.notBefore!))).toLocaleTimeString();
    tellings.push({ severity: 'info', text: waitingText(waiting, destination, at), actions: [showCopyJobsAction()] });
  }
  return tellings;
}
