// Root hooks of the fault suite (loaded with mocha's --require): closes what the tests started and prints
// the summary table, every figure computed from what the emulators, the clients and the tests recorded.
import { clientTotals, record } from './support';

function table(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([k]) => k.length));
  const valueWidth = Math.max(...rows.map(([, v]) => v.length));
  const line = `+-${'-'.repeat(width)}-+-${'-'.repeat(valueWidth)}-+`;
  return [line, ...rows.map(([k, v]) => `| ${k.padEnd(width)} | ${v.padStart(valueWidth)} |`), line].join('\n');
}

/**
 * One row per kind of write, and per case of issue 37 under it: requested, made once, doubled, lost, left to the person
 * (what the platform showed was someone else's change or proves nothing: asked, never overwritten), wrongly adopted,
 * stuck (no owner for 5 minutes).
 */
function writesTable(): string {
  const head = ['kind', 'case', 'requested', 'made once', 'doubled', 'lost', 'person asked', 'wrongly adopted', 'stuck'];
  const order = ['copy', 'abort', 'run', 're-run', 're-run failed', 'new folder', 'rename', 'tags', 'metadata', 'bulk tags', 'delete', 'async delete', 'move', 'async move', 'upload complete'];
  const rank = (key: string) => order.indexOf(key.split('\t')[0]) + 1 || 99;
  const keys = [...record.writes.keys()].sort((a, b) => rank(a) - rank(b) || (a.includes('\t') ? 1 : 0) - (b.includes('\t') ? 1 : 0) || a.localeCompare(b));
  const rows = keys.map((key) => {
    const f = record.writes.get(key)!;
    const [kind, what = 'lost answers, faults, windows'] = key.split('\t');
    return [kind, what, f.requested, f.once, f.doubled, f.lost, f.asked, f.wronglyAdopted, f.stuck].map(String);
  });
  return grid(head, rows, 2);
}

/** One row per class of hostile input: cases tried, bytes compared, files outside the folder, torn, hung. */
function integrityTable(): string {
  const head = ['class', 'cases', 'bytes compared', 'outside the folder', 'torn', 'hung'];
  const rows = [...record.integrity.entries()].map(([cls, f]) => [cls, f.cases, f.bytesCompared, f.outside, f.torn, f.hung].map(String));
  return grid(head, rows);
}

/** A table: the first `words` columns left-aligned, the figures right-aligned. */
function grid(head: string[], rows: string[][], words = 1): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  const render = (cells: string[]) => `| ${cells.map((c, i) => (i < words ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [line, render(head), line, ...rows.map(render), line].join('\n');
}

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await Promise.all(record.emulators.map((e) => e.close().catch(() => undefined)));
    const emu = record.emulators.reduce(
      (sum, e) => {
        sum.requests += e.stats.requests;
        sum.faults += e.stats.faultsInjected;
        for (const [status, n] of Object.entries(e.stats.byStatus)) sum.byStatus[Number(status)] = (sum.byStatus[Number(status)] ?? 0) + n;
        return sum;
      },
      { requests: 0, faults: 0, byStatus: {} as Record<number, number> },
    );
    const client = clientTotals();
    const distinct = new Set(record.messages.map((m) => m.text.replace(/\d{1,2}:\d{2}:\d{2}( [AP]M)?/g, 'HH:MM:SS'))).size;
    const { requested, received, lost, doubled } = record.copies;
    const rows: [string, string][] = [
      ['faults injected (emulator: 500, drop, 429, 503, lost)', String(emu.faults)],
      ['  of which 500 / dropped (incl. lost answers) / 429 / 503', `${emu.byStatus[500] ?? 0} / ${emu.byStatus[0] ?? 0} / ${emu.byStatus[429] ?? 0} / ${emu.byStatus[503] ?? 0}`],
      ['hostile answers served (own loopback servers)', String(record.hostileFaults)],
      ['requests made (client attempts)', String(client.requests)],
      ['requests received (emulators + hostile servers)', String(emu.requests + record.hostileRequests)],
      ['retries (GET only)', String(client.retries)],
      ['rate-limit waits', String(client.rateLimitWaits)],
      ['messages shown (distinct texts)', `${record.messages.length} (${distinct})`],
      ['request log lines checked for the token', String(record.logLines.length)],
      ['copies requested (items)', String(requested)],
      ['copies received by the emulator (items)', String(received)],
      ['copies lost', String(lost)],
      ['copies doubled', String(doubled)],
      ['jobs adopted after a lost answer', String(record.adoptions.adopted)],
      ['adopted a job that was not ours', String(record.adoptions.notOurs)],
    ];
    console.log('\n  Fault suite summary\n' + table(rows).split('\n').map((l) => `  ${l}`).join('\n') + '\n');
    console.log('  Writes, per kind and case (doubled, lost, wrongly adopted and stuck must be 0; person asked: left to the person, nothing overwritten)\n' + writesTable().split('\n').map((l) => `  ${l}`).join('\n') + '\n');
    if (record.integrity.size > 0) {
      console.log('  Hostile input, per class (outside the folder, torn and hung must be 0)\n' + integrityTable().split('\n').map((l) => `  ${l}`).join('\n') + '\n');
    }
  },
};
