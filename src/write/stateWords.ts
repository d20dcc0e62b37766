// A write's state in a few words, whatever it writes. Pure: no `vscode`.
import type { WriteRecord } from './outbox';

/** A record's state in a few words, for lists and tooltips. */
export function writeStateWords(record: WriteRecord, now: number, ownedHere: boolean): string {
  const where = ownedHere ? '' : ' (in another window)';
  switch (record.state) {
    case 'queued':
      return record.notBefore !== undefined && record.notBefore > now
        ? `waiting until ${new Date(record.notBefore).toLocaleTimeString()}${where}`
        : `being sent${where}`;
    case 'sending':
    case 'sent':
      return `being sent${where}`;
    case 'unsure':
      return `may have been submitted: being checked${where}`;
    case 'failed':
      return `not submitted${where}`;
  }
}
