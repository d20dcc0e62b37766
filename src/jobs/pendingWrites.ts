// The writes the Data Jobs view shows until they are jobs: every write of the account in use still in the outbox, of
// any kind, and what the person may do about each group of them. No `vscode` import.
import { waitsForPerson, type Outbox, type WriteRecord } from '../write/outbox';

/**
 * The writes of the account in use still in the outbox (any window's), oldest first: every write of any kind while it
 * is pending (copies, task actions, new folders, renames, tags, deletes…: being sent, waiting, being checked, not
 * found, refused); and the records this version leaves alone (from a newer version, or damaged), of any account, so
 * that they show somewhere.
 */
export function pendingWrites(outbox: Pick<Outbox, 'all'>, account: string | undefined): WriteRecord[] {
  if (account === undefined) return [];
  return outbox.all().filter((r) => r.problem || r.account === account);
}

/**
 * A request's records: whether this window owns them (only it acts on them), any was refused, not found, changed by
 * someone else since (any of the three: the person decides), any may have been submitted.
 */
export function requestState(
  records: readonly WriteRecord[],
  owns: (record: WriteRecord) => boolean,
): { problem: WriteRecord['problem']; owned: boolean; refused: boolean; notFound: boolean; changed: boolean; decides: boolean; unsure: boolean } {
  const problem = records.find((p) => p.problem)?.problem;
  return {
    problem,
    owned: !problem && records.every(owns),
    refused: records.some((p) => p.state === 'failed' && !p.problem),
    notFound: records.some((p) => p.state === 'notFound'),
    changed: records.some((p) => p.state === 'changed'),
    decides: records.some((p) => waitsForPerson(p) && !p.problem),
    unsure: records.some((p) => p.state === 'unsure'),
  };
}
