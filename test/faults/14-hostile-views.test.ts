// 14. Hostile input where the editor reads and what others will open (issue 36, the editor's half): the `sevenbridges:`
// file system's model (remote/remoteFiles.ts) over the emulator and over servers of the test's own, a job's log, the
// failure summary and Copy Results. Each class adds a row to the third table: cases tried, bytes compared with what
// was meant, files written outside the chosen folder, torn (what was shown or given as the file or the document and is
// not it: cut, shifted, split, a secret or a formula let through) and hung (a read or a walk that went past its stated
// bound: read on, held more, asked on). Every figure is computed from what the servers sent and the product returned.
import * as assert from 'assert';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import type { SbClient } from '../../src/api/client';
import { findFileIds } from '../../src/api/ids';
import { StorageClient } from '../../src/api/storage';
import type { Task } from '../../src/api/types';
import { resultsTable } from '../../src/jobs/itemOutcomes';
import type { TrackedJob } from '../../src/jobs/tracker';
import { PREVIEW_BYTES } from '../../src/remote/fileKinds';
import { contentReader } from '../../src/remote/preview';
import { MAX_DEPTH, MAX_FOLDER_ENTRIES, RemoteFiles, CONTENT_CACHE_BYTES, type RemoteFilesOptions, type RemoteSource } from '../../src/remote/remoteFiles';
import { collectFailureLogs, failedTasks, summaryMarkdown, writeSummary } from '../../src/tasks/failureLogs';
import { fetchLog, TAIL_BYTES } from '../../src/tasks/logContent';
import type { Emulator, FileRec } from '../emulator';
import { listReply, startHostile, type HostileServer } from './hostile';
import { accountIntegrity, assertReadable, makeClient, makeEmulator, note, TOKEN } from './support';
import { drainedOrClosed } from '../support/drained';

const MB = 1024 * 1024;
/** What a socket's buffers may hold on loopback once a reader lets go of a body: more than that sent is a read that went on. */
const SOCKET_SLACK = 16 * MB;

/** markdown-it, as VS Code's Markdown preview renders failure-summary.md (HTML on, as the preview has it). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as new (options: { html: boolean }) => { render(text: string): string };

/** The sevenbridges: file system's model, built as remote/register.ts builds it. */
function remoteFiles(client: SbClient, options: RemoteFilesOptions = {}, downloadInfo?: RemoteSource['downloadInfo']): RemoteFiles {
  return new RemoteFiles(
    {
      list: (location, page) => client.files.list(location, page),
      get: (id, o) => client.files.get(id, o),
      project: (id, signal) => client.projects.get(id, signal),
      downloadInfo: downloadInfo ?? ((id, signal) => client.files.downloadInfo(id, signal)),
      reader: async () => contentReader(new StorageClient()),
    },
    options,
  );
}

/** A storage of the test's own on loopback: `serve` answers each GET; it records the bytes it wrote. */
async function startStorage(serve: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>): Promise<{ url: string; written: () => number; close(): Promise<void> }> {
  let written = 0;
  const server = http.createServer((req, res) => {
    const write = res.write.bind(res) as (chunk: Buffer) => boolean;
    res.write = ((chunk: Buffer) => {
      written += chunk.length;
      return write(chunk);
    }) as typeof res.write;
    serve(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/object`,
    written: () => written,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Writes `body` with backpressure, stopping when the reader goes. */
async function send(res: http.ServerResponse, pieces: Iterable<Buffer>): Promise<void> {
  for (const piece of pieces) {
    if (res.destroyed) return;
    if (!res.write(piece)) await drainedOrClosed(res);
  }
  res.end();
}

describe('14. hostile views: the mounted project, previews, logs, the summary and Copy Results', function () {
  this.timeout(120_000);
  let emu: Emulator;
  let client: SbClient;
  let folder: FileRec;
  const at = '2026-11-20T12:00:00Z';
  const add = (name: string, size: number, parent = folder.id) =>
    emu.data.addFile({ id: emu.data.newFileId(), name, size, project: emu.data.projects[0].id, parent, type: 'file', created_on: at, modified_on: at, origin: {}, tags: [], metadata: {} });
  const pathOf = (name: string) => `/${emu.data.projects[0].id}/hostile-views/${name}`;
  const bytesOf = async (id: string): Promise<Buffer> => {
    const blob = emu.contentOf(id)!;
    const chunks: Buffer[] = [];
    for await (const chunk of blob.read(0, blob.size - 1)) chunks.push(chunk);
    return Buffer.concat(chunks);
  };
  /** What the emulator's storage sent since `from` (its request records). */
  const sentSince = (from: number) => emu.storageRequests.slice(from).reduce((n, r) => n + r.bytes, 0);

  before(async () => {
    emu = await makeEmulator({ taskStepMs: 60_000 });
    client = makeClient(emu.baseUrl);
    folder = emu.data.addFile({ id: emu.data.newFileId(), name: 'hostile-views', project: emu.data.projects[0].id, parent: emu.data.projects[0].root_folder, type: 'folder', created_on: at, modified_on: at, origin: {}, tags: [], metadata: {} });
  });
  afterEach(() => {
    emu.storageFaults.settings.ignoreRange = false;
  });

  it('mounted file read whole: what the file system says is the file, whole (size and bytes), or a refusal, never a cut or shifted file', async () => {
    const sizes = [0, 1, MB - 1, MB, MB + 1, 10 * MB];
    const files = sizes.flatMap((size) => [add(`text-${size}.tsv`, size), add(`blob-${size}.dat`, size)]);
    files.push(add('calls.vcf.gz', 180_000), add('reads.fastq.gz', 3 * MB));
    const figures = { cases: 0, bytesCompared: 0, torn: 0, hung: 0 };
    const remote = remoteFiles(client);
    const readWhole = async (file: FileRec, remote: RemoteFiles) => {
      const from = emu.storageRequests.length;
      const size = await remote.sizeOf(pathOf(file.name), 'file');
      const outcome = await remote.content(pathOf(file.name), 'file').then(
        (c) => c.bytes,
        (e: unknown) => e,
      );
      figures.cases++;
      const expected = await bytesOf(file.id);
      if (sentSince(from) > file.size!) figures.hung++;
      if (size !== expected.length) figures.torn++;
      if (Buffer.isBuffer(outcome)) {
        figures.bytesCompared += expected.length;
        if (!outcome.equals(expected)) figures.torn++;
      }
      return outcome;
    };
    for (const file of files) assert.ok(Buffer.isBuffer(await readWhole(file, remote)), file.name);
    // A body cut halfway: refused in words, then read whole.
    for (const file of files.filter((f) => f.size! > MB)) {
      const fresh = remoteFiles(client);
      emu.storageFaults.dropNextDownloads(1);
      const cut = await readWhole(file, fresh);
      assert.ok(!Buffer.isBuffer(cut), `${file.name}: a cut body is not the file`);
      assertReadable(String((cut as Error).message), `${file.name} cut`);
      assert.ok(Buffer.isBuffer(await readWhole(file, fresh)), `${file.name}: read again, whole`);
    }
    // A storage that answers from another offset than the start: refused, nothing shown shifted.
    const shifted = add('shifted.tsv', 4096);
    const storage = await startStorage(async (_req, res) => {
      const body = await bytesOf(shifted.id);
      res.writeHead(206, { 'Content-Length': String(body.length - 100), 'Content-Range': `bytes 100-${body.length - 1}/${body.length}` });
      await send(res, [body.subarray(100)]);
    });
    try {
      const outcome = await remoteFiles(client, {}, async () => storage.url).content(pathOf('shifted.tsv'), 'file').then((c) => c.bytes, (e: unknown) => e);
      figures.cases++;
      if (Buffer.isBuffer(outcome)) figures.torn++;
      else assertReadable((outcome as Error).message, 'shifted');
    } finally {
      await storage.close();
    }
    accountIntegrity('mounted file read whole', figures);
    note(`${figures.cases} reads of the file form (sizes 0 B to 10 MB, .gz as its bytes, bodies cut halfway, a shifted 206): ${(figures.bytesCompared / MB).toFixed(1)} MB compared, ${figures.torn} torn`);
    assert.deepStrictEqual([figures.torn, figures.hung], [0, 0]);
  });

  it('bounded reads: a head, a log\'s end, a .gz\'s text and the cache hold no more than they promise, whatever the storage sends', async () => {
    const figures = { cases: 0, bytesCompared: 0, torn: 0, hung: 0 };
    // The head of a 200 MB file from a storage that ignores Range.
    const huge = add('huge.tsv', 200 * MB);
    emu.storageFaults.settings.ignoreRange = true;
    const from = emu.storageRequests.length;
    const head = await remoteFiles(client).content(pathOf('huge.tsv'), 'head');
    const sent = sentSince(from);
    figures.cases++;
    if (head.bytes.length > PREVIEW_BYTES || sent > PREVIEW_BYTES + SOCKET_SLACK) figures.hung++;
    const start = Buffer.concat(await (async () => { const c: Buffer[] = []; for await (const x of emu.contentOf(huge.id)!.read(0, head.bytes.length - 1)) c.push(x); return c; })());
    figures.bytesCompared += head.bytes.length;
    if (!head.partial || !head.bytes.equals(start)) figures.torn++;
    note(`head of 200 MB through a storage that ignores Range: ${head.bytes.length} bytes held, ${(sent / MB).toFixed(1)} MB sent before the connection closed`);
    // A log's last 1 MB from the same storage: read through, its end held.
    const [task] = await failedTasks(client.tasks, {});
    const details = await client.tasks.executionDetails(task.id);
    const logs = (details.jobs ?? []).map((j) => String(j.logs?.['job.err.log'] ?? '')).filter(Boolean);
    for (const url of logs) {
      const id = findFileIds(url)[0];
      const content = emu.logs.get(id)!.content;
      const { text, download } = await fetchLog(client.files, id, false);
      figures.cases++;
      const shown = Buffer.from(download.text);
      if (shown.length > TAIL_BYTES) figures.hung++;
      figures.bytesCompared += shown.length;
      if (!content.subarray(content.length - shown.length).equals(shown) || (content.length > TAIL_BYTES) !== download.partial || !text.endsWith(download.text)) figures.torn++;
    }
    emu.storageFaults.settings.ignoreRange = false;
    // A small .gz that inflates to 200 MB: its head is 1 MB of text; Load Whole File's question reads 50 MB of text, no more.
    const bombFile = add('bomb.txt.gz', 200 * 1024);
    const bomb = Buffer.concat(Array.from({ length: 200 }, () => zlib.gzipSync(Buffer.alloc(MB, 0x41))));
    const storage = await startStorage(async (_req, res) => {
      res.writeHead(200, { 'Content-Length': String(bomb.length) });
      await send(res, [bomb]);
    });
    try {
      const remote = remoteFiles(client, {}, async (id) => (id === bombFile.id ? storage.url : client.files.downloadInfo(id)));
      const bombHead = await remote.content(pathOf('bomb.txt.gz'), 'head');
      const beyond = await remote.inflatesBeyond(pathOf('bomb.txt.gz'), 50 * MB);
      figures.cases += 2;
      if (bombHead.bytes.length > PREVIEW_BYTES || remote.cachedBytes > PREVIEW_BYTES) figures.hung++;
      if (!beyond) figures.hung++;
      figures.bytesCompared += bombHead.bytes.length;
      if (!bombHead.partial || !bombHead.bytes.equals(Buffer.alloc(bombHead.bytes.length, 0x41))) figures.torn++;
      note(`a .gz of ${(bomb.length / 1024).toFixed(0)} KB inflating to 200 MB: head ${bombHead.bytes.length} bytes, the question said "more than 50 MB": ${beyond}, ${remote.cachedBytes} bytes kept`);
    } finally {
      await storage.close();
    }
    // 40 files of 4 MB read whole: what is kept stays within its bound.
    const remote = remoteFiles(client);
    let most = 0;
    for (let i = 0; i < 40; i++) {
      const file = add(`many-${i}.dat`, 4 * MB);
      const bytes = (await remote.content(pathOf(file.name), 'file')).bytes;
      figures.cases++;
      most = Math.max(most, remote.cachedBytes);
      if (remote.cachedBytes > CONTENT_CACHE_BYTES) figures.hung++;
      if (i % 10 === 0) {
        figures.bytesCompared += bytes.length;
        if (!bytes.equals(await bytesOf(file.id))) figures.torn++;
      }
    }
    note(`40 files of 4 MB read whole: at most ${(most / MB).toFixed(0)} MB kept (bound ${CONTENT_CACHE_BYTES / MB} MB)`);
    accountIntegrity('bounded reads', figures);
    assert.deepStrictEqual([figures.torn, figures.hung], [0, 0]);
  });

  describe('walks', () => {
    let api: HostileServer;
    /** Listing requests per folder ID. */
    const asked = new Map<string, number>();
    const ROOT = 'a'.repeat(24);
    const folderId = (n: number) => n.toString(16).padStart(24, 'f');
    const file = (id: string, name: string, parent: string, type: 'file' | 'folder' = 'file') => ({ href: '', id, name, type, parent, project: 'rf/hostile', ...(type === 'file' ? { size: 1 } : {}) });
    const folders: Record<string, ReturnType<typeof file>> = {
      endless: file(folderId(1), 'endless', ROOT, 'folder'),
      same: file(folderId(2), 'same', ROOT, 'folder'),
      self: file(folderId(3), 'self', ROOT, 'folder'),
      a: file(folderId(4), 'a', ROOT, 'folder'),
      b: file(folderId(5), 'b', folderId(4), 'folder'),
    };
    /** The bound a listing may ask to: 100 pages. A walk asking past three times that is stopped here, and counted as hung. */
    const PAGES = MAX_FOLDER_ENTRIES / 100;
    const sameItems = Array.from({ length: 100 }, (_, i) => file(folderId(1000 + i), `same-${i}`, folderId(2)));

    before(async () => {
      api = await startHostile((_req, url) => {
        const p = url.pathname.replace(/\/+$/, '');
        if (p === '/v2/projects/rf/hostile') return { body: { href: '', id: 'rf/hostile', name: 'Hostile', root_folder: ROOT } };
        if (p !== '/v2/files') return { status: 404, body: { status: 404, code: 90003, message: 'Not found.' } };
        const q = url.searchParams;
        const parent = q.get('parent') ?? (q.get('project') === 'rf/hostile' ? ROOT : '');
        const name = q.get('name');
        const offset = Number(q.get('offset') ?? 0);
        if (name !== null) return listReply(Object.values(folders).filter((f) => f.parent === parent && f.name === name));
        const n = (asked.get(parent) ?? 0) + 1;
        asked.set(parent, n);
        if (n > 3 * PAGES) return { drop: true };
        switch (parent) {
          case folderId(1): // new entries for ever, no total
            return listReply(Array.from({ length: 100 }, (_, i) => file(folderId(100_000 + offset + i), `e-${offset + i}`, parent)), { total: null });
          case folderId(2): // the same page for ever
            return listReply(sameItems, { total: '1000000' });
          case folderId(3): // lists itself
            return listReply([folders.self, file(folderId(6), 'x.txt', parent)]);
          case folderId(4): // a lists b, b lists a
            return listReply([folders.b, file(folderId(7), 'in-a.txt', parent)]);
          case folderId(5):
            return listReply([{ ...folders.a, parent }, file(folderId(8), 'in-b.txt', parent)]);
          default:
            return listReply([]);
        }
      });
    });
    after(() => api.close());

    it('walks: a listing that never ends or repeats itself, a folder that lists itself, a cycle, a path too deep: each stops at its bound, with words', async () => {
      const told: string[] = [];
      const remote = remoteFiles(makeClient(api.baseUrl, { maxRetries: 0 }), { onWalkStopped: (words) => told.push(words) });
      const figures = { cases: 0, bytesCompared: 0, torn: 0, hung: 0 };
      const walked = async (at: string, expect: string[] | 'refused') => {
        const outcome = await remote.list(`/rf/hostile/${at}`).then((r) => r.map((f) => f.name).sort(), (e: unknown) => e);
        const name = at.split('/').pop()!;
        figures.cases++;
        if ((asked.get(folders[name].id) ?? 0) > PAGES) figures.hung++;
        if (expect === 'refused') {
          if (Array.isArray(outcome)) figures.torn++;
          else assertReadable((outcome as Error).message, name);
        } else if (JSON.stringify(outcome) !== JSON.stringify(expect)) {
          figures.torn++;
          note(`${name}: ${outcome instanceof Error ? outcome.message : JSON.stringify(outcome)}`);
        }
        return outcome;
      };
      await walked('endless', 'refused');
      await walked('same', 'refused');
      await walked('self', ['x.txt']);
      // A recursive walk down the cycle, as VS Code's copy of a folder walks it: it ends.
      let steps = 0;
      const down = async (at: string): Promise<void> => {
        if (++steps > 100) return;
        for (const entry of await remote.list(at)) if (entry.type === 'folder') await down(`${at}/${entry.name}`);
      };
      await down('/rf/hostile/a');
      figures.cases++;
      if (steps > 2) figures.hung++;
      await walked('a', ['b', 'in-a.txt']);
      await walked('a/b', ['in-b.txt']);
      const deep = await remote.entry(`/rf/hostile/${Array.from({ length: MAX_DEPTH + 1 }, () => 'd').join('/')}`).then(() => undefined, (e: unknown) => e);
      figures.cases++;
      if (!deep) figures.torn++;
      accountIntegrity('walks', figures);
      note(`walks: ${[...asked.entries()].map(([id, n]) => `${Object.values(folders).find((f) => f.id === id)?.name ?? 'root'} ${n} pages`).join(', ')}; told: ${told.length}`);
      assert.deepStrictEqual([figures.torn, figures.hung], [0, 0]);
      // Said once per folder: the one that lists itself, and b (inside a) that lists a.
      assert.strictEqual(told.length, 2, told.join('\n'));
    });
  });

  it('summary text: hostile task names and log lines stay in their cells, secrets redacted, nothing written outside the folder', async () => {
    const names = ['run 1\r# Heading', 'two\nlines | pipe', '# leading hash', '`tick` ``two``', '<img src=x onerror=alert(1)>', '<script>alert(1)</script>', '\x1b[31mred\x1b[0m', '[x](javascript:alert(1))', '../../outside', 'a\u2028b'];
    const lines = ['`code` | pipe </code><b>b</b>', `token ${TOKEN} echoed`, 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'];
    const failed = (await failedTasks(client.tasks, {})).slice(0, names.length);
    for (const task of failed) await client.tasks.executionDetails(task.id);
    for (const log of emu.logs.values()) if (failed.some((t) => t.id === log.taskId) && log.name === 'job.err.log') log.content = Buffer.concat([log.content, Buffer.from(`${lines.join('\r\n')}\n`)]);
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-hostile-summary-'));
    const chosen = path.join(parent, 'chosen');
    try {
      const tasks: Task[] = failed.map((t, i) => ({ ...t, name: names[i] }));
      const result = await collectFailureLogs(tasks, { executionDetails: (id) => client.tasks.executionDetails(id), downloadInfo: (id) => client.files.downloadInfo(id) }, { folder: chosen, secrets: [TOKEN] });
      const summary = summaryMarkdown(result, `Failure logs of "${names[0]}"`);
      await writeSummary(chosen, summary);
      const html = new MarkdownIt({ html: true }).render(summary);
      const body = /<tbody>([\s\S]*)<\/tbody>/.exec(html)?.[1] ?? '';
      const rows = [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) => [...r[1].matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => c[1]));
      const read = (cell: string) => cell.replace(/<[^>]+>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
      // eslint-disable-next-line no-control-regex
      const oneLine = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '').replace(/[\r\n\u2028]/g, ' ').trim();
      // No wait to count as hung here: the summary is made from what was collected.
      const figures = { cases: names.length + lines.length * result.rows.length, bytesCompared: 0, outside: 0, torn: 0 };
      if (rows.length !== result.rows.length || (html.match(/<h\d/g) ?? []).length !== 1 || /<img|<script|<b>|href="javascript/i.test(html)) figures.torn++;
      result.rows.forEach((row, i) => {
        const cells = rows[i] ?? [];
        const want = oneLine(row.task.name);
        figures.bytesCompared += Buffer.byteLength(want);
        if (cells.length !== 5 || read(cells[0]) !== want) figures.torn++;
        const quoted = (cells[4] ?? '').split('<br>').slice(0, 3).map(read);
        if (JSON.stringify(quoted) !== JSON.stringify(['`code` | pipe </code><b>b</b>', 'token (the token) echoed', 'AWS_SECRET_ACCESS_KEY=(redacted)'])) figures.torn++;
      });
      if (summary.includes(TOKEN) || summary.includes('wJalrXUtnFEMI')) figures.torn++;
      figures.outside = fs.readdirSync(parent).filter((entry) => entry !== 'chosen').length;
      accountIntegrity('summary text', figures);
      note(`failure-summary.md: ${rows.length} rows of hostile names, ${result.rows.length * 3} quoted lines, ${figures.torn} torn`);
      assert.deepStrictEqual([figures.torn, figures.outside], [0, 0]);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  it('TSV cells: what a spreadsheet would run is kept as text, what a terminal would act on is out, one line and four cells a row', () => {
    const names = ["=cmd|' /C calc'!A0", '+SUM(1)', '-2+3', '@SUM(A1)', '\t=1+1', '\r=1+1', '\x1b]0;owned\x07title.bam', '\x1b[2J\x1b[31mred.bam', 'two\nlines.bam', '\u202egnp.exe', 'plain.bam'];
    const id = (n: number) => n.toString(16).padStart(24, '0');
    const job = {
      id: 'hostile-tsv',
      submittedAt: 0,
      state: 'FINISHED',
      destination: { label: 'rf/dest', project: 'rf/dest' },
      items: names.map((_, i) => ({ file: id(i + 1), project: 'rf/dest' })),
      sourceNames: Object.fromEntries(names.map((n, i) => [id(i + 1), n])),
      result: names.map((n, i) => ({ resource: { href: '', id: id(100 + i), name: n } })),
    } as unknown as TrackedJob;
    const table = resultsTable([job]);
    const rows = table.slice(0, -1).split('\n').slice(1);
    // No wait to count as hung here: the table is made from the jobs' records.
    const figures = { cases: names.length, bytesCompared: 0, torn: 0 };
    // eslint-disable-next-line no-control-regex
    const controls = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e]/;
    if (rows.length !== names.length) figures.torn++;
    rows.forEach((row) => {
      const cells = row.split('\t');
      figures.bytesCompared += Buffer.byteLength(row);
      if (cells.length !== 4 || cells.some((c) => /^\s*[=+\-@]/.test(c) || controls.test(c))) figures.torn++;
    });
    accountIntegrity('TSV cells', figures);
    note(`Copy Results: ${rows.length} hostile names, cells: ${rows.map((r) => JSON.stringify(r.split('\t')[1])).join(' ')}`);
    assert.strictEqual(figures.torn, 0);
  });
});
