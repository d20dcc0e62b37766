// Completion of a file input in a task document (issue 39), in a project of 20,000 files at its top level: the
// completion's model part as the editor calls it (`completionAt`, tasks/taskDocumentAssist.ts, over the
// TaskDocumentFacts the task document's language holds), against the emulator on the real clock. The document was
// checked when it was opened, so its app's inputs are held; the first list reads one page of the project's files, a
// list asked for again is made from what is held, and typing on in a list that is not complete reads one page more.
// Part "completion" of `npm run bench`; by itself: `node out/scripts/bench/completionScenario.js`.
import { TaskDocumentFacts } from '../../src/tasks/taskDocumentFacts';
import { completionAt, cursorPlace } from '../../src/tasks/taskDocumentAssist';
import { parseTaskDocument } from '../../src/tasks/taskDocument';
import { startEmulator } from '../../test/emulator';
import type { Store } from '../../test/emulator/data';
import { clientFor, tally } from './env';
import type { Figure } from './figures';

export const COMPLETION_FILES = 20_000;
const PROJECT = 'rfranklin/my-project';
const APP = `${PROJECT}/fastqc/12`;
/** Runs of each timed list: the figure is their median. */
const RUNS = 5;
const NEXT_LIMIT_MS = 50;

const DOCUMENT = ['app: ' + APP, 'project: ' + PROJECT, 'name: FastQC', 'inputs:', '  input_fastq: '].join('\n');

export interface CompletionResult {
  first: { requests: number; ms: number; suggestions: number };
  /** Asked again with the first page held (as on the next File input, or after Escape). */
  next: { requests: number; ms: number; suggestions: number };
  /** Asked again with every file of the project held. */
  nextAllHeld: { requests: number; ms: number; suggestions: number };
  /** Typing on in a list not complete: one page more each time. */
  typing: { requests: number; ms: number };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function completeFiles(): Promise<CompletionResult> {
  const emulator = await startEmulator({ tasks: 100, files: 1_000 });
  try {
    const store = emulator.data as Store;
    const project = store.projectById.get(PROJECT)!;
    const stamp = new Date(store.startedAt).toISOString().slice(0, 19) + 'Z';
    for (let i = 0; i < COMPLETION_FILES; i++) {
      const name = `run_${String(i).padStart(5, '0')}_R${(i % 2) + 1}.fastq.gz`;
      store.addFile({ id: store.newFileId(), name, size: 1_000_000, project: PROJECT, parent: project.root_folder, type: 'file', created_on: stamp, modified_on: stamp, origin: {}, tags: [], metadata: {} });
    }
    const client = clientFor(emulator);
    await client.rateLimit();
    // As the task document's language makes them (taskDocumentLanguage.ts).
    const facts = new TaskDocumentFacts({ apps: client.apps, files: { get: (id) => client.files.get(id), list: (where, page) => client.files.list(where, page) } });
    const parsed = await parseTaskDocument(DOCUMENT);
    const app = await facts.app(APP);
    if (!('inputs' in app)) throw new Error(`the app ${APP} could not be read`);
    const place = cursorPlace(DOCUMENT, DOCUMENT.length);
    const list = async (again: boolean) => {
      const before = emulator.stats.requests;
      const t0 = performance.now();
      const { suggestions } = await completionAt(facts, place, parsed, app.inputs, again);
      return { ms: performance.now() - t0, requests: emulator.stats.requests - before, suggestions: suggestions.length };
    };
    const first = await list(false);
    const timed = async (again: boolean) => {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await list(again));
      return { requests: Math.max(...runs.map((r) => r.requests)), ms: median(runs.map((r) => r.ms)), suggestions: runs[runs.length - 1].suggestions };
    };
    const next = await timed(false);
    const typing = await timed(true);
    // The rest held as typing on holds it, a page more at each key, to the end.
    while (!(await completionAt(facts, place, parsed, app.inputs, true)).complete);
    const nextAllHeld = await timed(false);
    tally('completion of a file input, 20,000 files', 'extension', emulator, client);
    return { first, next, nextAllHeld, typing: { requests: typing.requests, ms: typing.ms } };
  } finally {
    await emulator.close();
  }
}

export function completionFigures(r: CompletionResult): Figure[] {
  const section = `Task document: completion of a file input in a project of ${COMPLETION_FILES.toLocaleString('en-US')} files`;
  return [
    {
      section,
      name: "the first list: requests (its app's inputs held since the document was checked)",
      unit: 'req',
      value: r.first.requests,
      ideal: 1,
      limit: 1,
      margin: 'one page request at most',
      note: `${r.first.suggestions} files offered (the fitting ones of the first page of 100), ${Math.round(r.first.ms)} ms`,
    },
    {
      section,
      name: `the next list, from what is held (the first page): time (median of ${RUNS})`,
      unit: 'ms',
      value: r.next.requests === 0 ? r.next.ms : NaN,
      limit: NEXT_LIMIT_MS,
      margin: `≤ ${NEXT_LIMIT_MS} ms, no request`,
      note: `${r.next.requests} requests`,
    },
    {
      section,
      name: `the next list, every file of the project held: time (median of ${RUNS})`,
      unit: 'ms',
      value: r.nextAllHeld.requests === 0 ? r.nextAllHeld.ms : NaN,
      limit: NEXT_LIMIT_MS,
      margin: `≤ ${NEXT_LIMIT_MS} ms, no request`,
      note: `${r.nextAllHeld.suggestions.toLocaleString('en-US')} files offered, ${r.nextAllHeld.requests} requests`,
    },
    {
      section,
      name: 'typing on in a list not complete (VS Code asks again at each key): requests a key',
      unit: 'req',
      value: r.typing.requests,
      ideal: 1,
      limit: 1,
      margin: 'one page request a key at most',
      note: `a page more each time: ${Math.round(r.typing.ms)} ms (median of ${RUNS}), the page's request included`,
    },
  ];
}

if (require.main === module) {
  completeFiles().then(
    (r) => console.log(JSON.stringify(r)),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
