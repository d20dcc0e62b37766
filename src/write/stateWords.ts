// A write's state in a few words, whatever it writes. Pure: no `vscode`.
import * as l10n from '@vscode/l10n';
import type { WriteRecord } from './records';

/** A record's state in a few words, for lists and tooltips. */
export function writeStateWords(record: WriteRecord, now: number, ownedHere: boolean): string {
  if (record.problem === 'newer') return l10n.t('from a newer version of the extension: left alone');
  if (record.problem === 'corrupt') return l10n.t('damaged: discard it');
  const waitingUntil = record.state === 'queued' && record.notBefore !== undefined && record.notBefore > now ? new Date(record.notBefore).toLocaleTimeString() : undefined;
  if (ownedHere) {
    if (waitingUntil) return l10n.t('waiting until {0}', waitingUntil);
    if (record.state === 'unsure') return l10n.t('may have been submitted: being checked');
    if (record.state === 'notFound') return l10n.t('not found on the platform: submit again?');
    if (record.state === 'changed') return l10n.t('changed on the platform since: submit again?');
    if (record.state === 'failed') return l10n.t('not submitted');
    return l10n.t('being sent');
  }
  if (waitingUntil) return l10n.t('waiting until {0} (in another window)', waitingUntil);
  if (record.state === 'unsure') return l10n.t('may have been submitted: being checked (in another window)');
  if (record.state === 'notFound') return l10n.t('not found on the platform (in another window)');
  if (record.state === 'changed') return l10n.t('changed on the platform since (in another window)');
  if (record.state === 'failed') return l10n.t('not submitted (in another window)');
  return l10n.t('being sent (in another window)');
}
