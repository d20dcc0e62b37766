// The README's Performance section: how to run, the machine, the table, and how each figure was taken.
import { markdownTable, passes, type Figure } from './figures';
import { describeMachine, type Machine } from './machine';

export interface ReportInput {
  figures: Figure[];
  machine: Machine;
  date: string;
  notes: string[];
}

export function performanceSection(r: ReportInput): string {
  const failed = r.figures.filter((f) => !passes(f));
  return [
    '## Performance',
    '',
    '`npm run bench` (not part of `npm test`) builds and packages the extension, starts the platform emulator with',
    '10,000 tasks (every status, batch parents) and 10,000 files, drives the extension\'s own client and models',
    'against it, and measures the naive way in the same run. It exits non-zero when a figure exceeds its ideal by',
    'more than its declared margin (the Limit column).',
    '',
    `Measured ${r.date} on ${describeMachine(r.machine)}.`,
    '',
    markdownTable(r.figures),
    '',
    failed.length ? `**Over the limit:** ${failed.map((f) => `${f.section}: ${f.name}`).join('; ')}.` : 'Every figure is within its limit.',
    '',
    'How the figures are taken:',
    '',
    ...r.notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
}

export const METHOD_NOTES = [
  'Every scenario, and each strategy within it, runs against a fresh emulator with its own token quota at the default limit (1000 requests per 5 minutes); "Rate limit" adds up the 429s of all of them.',
  'Task tree: the extension\'s `TaskTreeModel` (`src/tasks/taskTree.ts`) asks for the root (one `count` per visible group, and without a status filter one unfiltered `count` that tells how many tasks are in statuses no filter value names: the 7th), then opens the largest group and loads it to the end with its `PagedList` (100 a page). Naive: one unfiltered `GET /v2/tasks` without `limit` (25 a page) following `next` links, filtered and grouped on the client; its counts are known only when the whole listing is in. Both ask for the same fields, so the heap compares strategies, not fields.',
  'Watching: a `TaskWatcher` (`src/tasks/watcher.ts`) following 50 running or queued tasks polls 5 times (one `POST /v2/bulk/tasks/get` for up to 100 tasks each); naive: one `GET /v2/tasks/{id}` per watched task per round.',
  'Peak heap: each strategy runs in its own worker process (`--expose-gc`), `heapUsed` sampled every 5 ms and after every page, above the baseline taken after a GC.',
  'Filtering: statuses Completed + Failed, project `rfranklin/rna-seq-analysis`, created in the last 30 days (the filter model\'s preset).',
  'Time ideals: latencies timed apart in the same run, between the measured parts (median of 3 each, not counted in the request figures): the counts go out together, so the ideal is one count request; a listing is ceil(N/100) pages of 100 one after another.',
  'Copying: `planCopy` splits 1,000 file IDs into calls of 100; `CopySubmitter.submitAll` sends them (after one look at the newest job, so that a lost answer can later be told apart) and hands each job to the `JobTracker` with its default timings (first look 2 s, then every 5 s, doubling while nothing changes; from 2 jobs on, one `GET /v2/async/files` refreshes all). Real clock, emulator `copyStepMs` 500 ms (a job of 100 files finishes 3 s after submission). Naive: the same 10 POSTs, then one GET per unfinished job every second.',
  'Following jobs per minute: an accelerated clock shared by the emulator, the client and the tracker (time jumps to the next timer; every request is a real HTTP request to the emulator), jobs of 100 files at 30 s per state step, so every job stays in flight the whole minute. Naive: one GET per job per second; once it has spent the quota, the client refuses its GETs before sending them (counted as attempted).',
  'Activation: code-server with the packaged `.vsix` and the harness\'s test-runner extension (activated on `*`, before the product\'s `onStartupFinished`) running one probe, `scripts/bench/host/activation.test.ts`, which times `extension.activate()` from inactive (VS Code loads `dist/extension.js` and calls `activate`); median of 3 cold starts, signed out. The product\'s own "Activated in N ms" log line is not used: code-server keeps the remote extension host\'s output channels out of any file the bench can read.',
  'Reading them: request counts are exact and repeat from run to run; times move with the load of the machine (a 2-core machine may be shared with other runs), which is why their limits are multiples of latencies timed in the same run. The copy jobs are seen FINISHED up to one tracker interval (5 s) after the platform finishes them, by design (the tracker polls every 5 s while jobs progress); the extra request before the copy POSTs is the submitter\'s look at the newest job, which lets a lost answer be found instead of copying twice.',
];
