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
  'Task tree: the extension\'s `TaskTreeModel` (`src/tasks/taskTree.ts`) asks for the root (one `count` per visible group, and without a status filter one unfiltered `count` that tells how many tasks are in statuses no filter value names: the 7th), then opens the largest group and loads it to the end with its paged loader (100 a page). Naive: one unfiltered `GET /v2/tasks` without `limit` (25 a page) following `next` links, filtered and grouped on the client; its counts are known only when the whole listing is in. Both ask for the same fields, so the heap compares strategies, not fields.',
  'Watching: a `TaskWatcher` (`src/tasks/watcher.ts`) following 50 running or queued tasks polls 5 times (one `POST /v2/bulk/tasks/get` for up to 100 tasks each); naive: one `GET /v2/tasks/{id}` per watched task per round.',
  'Peak heap: each strategy runs in its own worker process (`--expose-gc`), `heapUsed` sampled every 5 ms and after every page, above the baseline taken after a GC.',
  'Filtering: statuses Completed + Failed, project `rfranklin/rna-seq-analysis`, created in the last 30 days (the filter model\'s preset).',
  'Time ideals: latencies timed apart in the same run, between the measured parts (median of 3 each, not counted in the request figures): the counts go out together, so the ideal is one count request; a listing is ceil(N/100) pages of 100 one after another.',
  'Scale: the task tree against emulators of 10,000 and 100,000 tasks (counts, then the largest group opened and 9 × "Load more": 10 pages shown), and a folder of 20,000 files paged to the end by the files view\'s `Pager` (100 a page), each in a worker process of its own (heap as above). Time ideals are the emulator\'s own cost at that size, timed apart in the same worker (median of 3): each group\'s count request one after another (the emulator answers one at a time, so the counts sent together cannot beat that), and the same page asked bare. The heap bound does not depend on N: what is shown is held, not what exists.',
  'Round trip 80 ms: the emulator answers every request 80 ms late (its latency fault, `npm run emulator -- --latency 80`), 10,000 tasks; the extension\'s `TaskTreeModel` asks for the counts and opens the largest group (first page of 100); ideal: one count request timed apart, median of 3 runs each. The page\'s bytes are those the tree asks for (`TASK_LIST_FIELDS`: a row\'s fields plus what tooltips, batch summaries and the "Copy Outputs To…" menu read); the ideal is the same page with only `id,name,status,project,created_time,start_time,end_time,batch`. The official client (sevenbridges-python) is not run beside it: it comes from PyPI, which this machine cannot reach, and Debian does not package it.',
  'Copying: `planCopy` splits 1,000 file IDs into calls of 100; the outbox sends them (`followCopies`) (after one read of the job list, so that a lost answer can later be told apart from the jobs that existed) and hands each job to the `JobTracker` with its default timings (first look after 1 s, then every 1 s + 10 % of the newest unfinished job\'s age, 60 s at most; from 2 jobs on, one `GET /v2/async/files` refreshes all). Real clock, emulator `copyStepMs` 500 ms (a job of 100 files finishes 3 s after submission). Naive: the same 10 POSTs, then one GET per unfinished job every second.',
  'How soon a finished job is seen: the same tracker and emulator on the accelerated clock, one job of 100 files whose running time (submission to the platform\'s finish) is 3 s, 30 s, 5 min or 1 h; the lag is from the platform\'s finish to the tracker\'s FINISHED, against the goal 1 s + 10 % of the running time. The fewest looks that keep that goal whenever a job finishes: one at 1 s, then each 1 s + 10 % of the time of the one before (20 in the first minute, 6 in the second, fewer after; at most one a minute from the tenth minute on) — the tracker\'s schedule. The 1-hour job is counted minute by minute; "before #15" figures were measured with the earlier schedule (first look 2 s, then 5 s, ×2 while nothing changes, 5 s again on any progress) on the same scenarios.',
  'Following jobs per minute: an accelerated clock shared by the emulator, the client and the tracker (time jumps to the next timer; every request is a real HTTP request to the emulator), jobs of 100 files at 30 s per state step, so every job stays in flight the whole minute. Naive: one GET per job per second; once it has spent the quota, the client refuses its GETs before sending them (counted as attempted).',
  'Activation: code-server with the packaged `.vsix`, an empty extension (`exports.activate = () => {}`) and the harness\'s test-runner extension, which runs one probe, `scripts/bench/host/activation.test.ts`. The product (its installed copy) and the empty extension get an activation event the host never fires, so only the probe activates them, the same way (`extension.activate()` from inactive: VS Code loads the main file and calls `activate`), once startup has finished (a startup marker extension on `onStartupFinished` is active) and 2 s have passed: activations during startup wait on the busy workbench (each fetches its stored state from it) and measured 5–175 ms for the empty extension alone. Five code-servers, the order of the two alternating; the ratio is of the two medians. The product\'s `activate` only registers a stand-in per contributed command (`src/extension.ts`, `src/lazyStart.ts`); `dist/main.js` loads and starts in the next turn of the event loop: "until started" times that too (`activate()` returned `ready`; before #15 all of it happened inside `activate`: about 21 ms then, measured this way). The product is signed in to the emulator running in the host, which counts the requests sent until it has started (ideal none) and in the 3 s after. The product\'s own log line is not used: code-server keeps the remote extension host\'s output channels out of any file the bench can read.',
  'Reading them: request counts are exact and repeat from run to run; times move with the load of the machine (a 2-core machine may be shared with other runs), which is why their limits are multiples of latencies timed in the same run. The first minute of following a job costs more requests than before #15 (20 instead of 6): that is the price of seeing a short job finish within 1 s + 10 %; from the third minute on the schedule asks less often than the earlier one did while a job progressed (a 1-hour job: 94 requests instead of 265). The extra request before the copy POSTs is the submitter\'s look at the newest job, which lets a lost answer be found instead of copying twice.',
];
