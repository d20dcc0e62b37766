// Scale: the task tree of accounts with 10,000 and 100,000 tasks (counts, first page, heap while 10 pages are
// shown), and a folder of 20,000 files paged to the end in the files view's way. Each in a worker process of its
// own (scaleWorker.ts) against a fresh emulator; time ideals are the same requests bare, timed apart in the same
// worker: what the emulator itself costs at that size.
import { fork } from 'child_process';
import * as path from 'path';
import type { Emulator } from '../../test/emulator';
import { freshEmulator, tally } from './env';
import { timeLimit, type Figure } from './figures';
import type { FilesScale, ScaleJob, ScaleMessage, TasksScale } from './scaleWorker';

export const SCALE_TASKS = [10_000, 100_000];
export const FOLDER_FILES = 20_000;
const PAGES_SHOWN = 10;
const WORKER_TIMEOUT_MS = 300_000;

async function runWorker(job: ScaleJob, what: string): Promise<ScaleMessage & { ok: true }> {
  const child = fork(path.join(__dirname, 'scaleWorker.js'), [JSON.stringify(job)], { execArgv: ['--expose-gc'], stdio: 'inherit' });
  const message = await new Promise<ScaleMessage>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`scale (${what}): the worker did not finish within ${WORKER_TIMEOUT_MS / 1000} s`));
    }, WORKER_TIMEOUT_MS);
    child.once('message', (m) => {
      clearTimeout(timer);
      resolve(m as ScaleMessage);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`scale (${what}): the worker exited (${code}) without an answer`));
    });
  });
  if (!message.ok) throw new Error(`scale (${what}): ${message.error}`);
  return message;
}

export async function tasksAtScale(tasks: number): Promise<TasksScale> {
  const emulator = await freshEmulator({ tasks });
  try {
    const message = await runWorker({ kind: 'tasks', baseUrl: emulator.baseUrl, token: emulator.token, pages: PAGES_SHOWN }, `${tasks} tasks`);
    tally(`scale: ${tasks} tasks`, 'extension', emulator);
    return message.tasks!;
  } finally {
    await emulator.close();
  }
}

/** A folder of FOLDER_FILES files in the first project, added to a fresh emulator. */
function addHugeFolder(emulator: Emulator): string {
  const data = emulator.data;
  const project = data.projects[0];
  const stamp = new Date().toISOString().slice(0, 19) + 'Z';
  const folder = data.addFile({ id: data.newFileId(), name: 'huge-folder', project: project.id, parent: project.root_folder, type: 'folder', created_on: stamp, modified_on: stamp, origin: {}, tags: [], metadata: {} });
  for (let i = 0; i < FOLDER_FILES; i++) {
    data.addFile({ id: data.newFileId(), name: `sample_${String(i).padStart(5, '0')}.fastq.gz`, size: 1_000_000 + i, project: project.id, parent: folder.id, type: 'file', created_on: stamp, modified_on: stamp, origin: {}, tags: [], metadata: {} });
  }
  return folder.id;
}

export async function hugeFolder(): Promise<FilesScale> {
  const emulator = await freshEmulator({ tasks: 100 });
  try {
    const folder = addHugeFolder(emulator);
    const message = await runWorker({ kind: 'files', baseUrl: emulator.baseUrl, token: emulator.token, folder }, 'huge folder');
    tally('scale: folder of 20,000 files', 'extension', emulator);
    return message.files!;
  } finally {
    await emulator.close();
  }
}

const n = (x: number) => x.toLocaleString('en-US');

export function scaleFigures(tasks: { tasks: number; r: TasksScale }[], folder: FilesScale): Figure[] {
  const section = 'Scale';
  const figures: Figure[] = [];
  for (const { tasks: count, r } of tasks) {
    figures.push(
      { section, name: `${n(count)} tasks: time until every group has its count`, unit: 'ms', value: r.countMs, ideal: r.countRefMs, ...timeLimit(r.countRefMs, 1.5, 200), note: 'ideal: each group\'s bare count request, one after another (the emulator\'s own cost)' },
      { section, name: `${n(count)} tasks: time to the first page of the largest group`, unit: 'ms', value: r.firstPageMs, ideal: r.pageRefMs, ...timeLimit(r.pageRefMs, 1.5, 200), note: 'ideal: the same page bare' },
      { section, name: `${n(count)} tasks: peak heap while showing ${r.pagesShown} pages (${n(r.rowsShown)} rows) of the largest group`, unit: 'MB', value: r.peakHeapMb, limit: 8 + (4 * PAGES_SHOWN * 100) / 1024, margin: 'bound: 8 MB + 4 KB × rows shown, whatever N' },
    );
  }
  figures.push(
    { section, name: `folder of ${n(FOLDER_FILES)} files: time to the first page`, unit: 'ms', value: folder.firstPageMs, ideal: folder.pageRefMs, ...timeLimit(folder.pageRefMs, 1.5, 200), note: 'ideal: the same page bare' },
    {
      section,
      name: `folder of ${n(FOLDER_FILES)} files: peak heap while paging to the end (${folder.pages} pages, ${n(folder.listed)} files)`,
      unit: 'MB',
      value: folder.listed === FOLDER_FILES ? folder.peakHeapMb : NaN,
      limit: 8 + (2 * FOLDER_FILES) / 1024,
      margin: 'bound: 8 MB + 2 KB × files',
    },
  );
  return figures;
}
