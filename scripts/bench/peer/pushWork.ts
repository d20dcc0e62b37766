// A push of CWL (issue 40): a workflow of 5 steps, each step's `run:` a file of its own, packed as the terminal packer
// packs it and pushed as the next revision of an app. The product: the packer, one read of the latest revision, one
// POST through the write path (Push App Revision… with { confirm: false }, less the editor). The official client: as
// sbpack pushes (`apps.get`, then `create_revision` of latest + 1, which reads the app again), given the document the
// product packed, so that both send the same.
import * as assert from 'assert';
import * as path from 'path';
import type { RawApp } from '../../../src/api/apps';
import { appInstallWrite, appRevisionWrite, type AppRevisionOutcome } from '../../../src/apps/appRevisionWrite';
import { packCwl } from '../../../src/apps/cwlPack';
import { planPush } from '../../../src/apps/pushPlan';
import { Outbox } from '../../../src/write/outbox';
import { memoryState } from '../../../test/support/sharedState';
import type { Json, PeerWork } from './works';

const APP = 'rfranklin/my-project/align-and-sort';
const ROOT = path.resolve('/bench-repository');
export const PUSH_STEPS = 5;

const tool = (i: number) => ({
  cwlVersion: 'v1.0',
  class: 'CommandLineTool',
  label: `Step ${i}`,
  baseCommand: ['step', String(i)],
  inputs: [{ id: 'input', type: 'File', inputBinding: { position: 1 } }, { id: 'threads', type: 'int', default: 4 }],
  outputs: [{ id: 'output', type: 'File', outputBinding: { glob: `step${i}.out` } }],
});

/** The repository's files: the workflow (YAML, steps as a map naming their files) and a tool per step (JSON). */
export function pushFiles(): Record<string, string> {
  const steps = Array.from({ length: PUSH_STEPS }, (_, i) => i + 1);
  const workflow = [
    'cwlVersion: v1.0',
    'class: Workflow',
    'label: Five steps',
    'inputs:',
    '  reads: File',
    'outputs:',
    `  result: { type: File, outputSource: step${PUSH_STEPS}/output }`,
    'steps:',
    ...steps.flatMap((i) => [`  step${i}:`, `    run: tools/step${i}.cwl`, `    in: { input: ${i === 1 ? 'reads' : `step${i - 1}/output`} }`, '    out: [output]']),
  ].join('\n');
  return { 'workflow.cwl': `${workflow}\n`, ...Object.fromEntries(steps.map((i) => [`tools/step${i}.cwl`, JSON.stringify(tool(i), null, 2)])) };
}

/** What packing the files makes, written out: the official client is given it (the product's packing is checked against it). */
export function packedByHand(): RawApp {
  const steps = Array.from({ length: PUSH_STEPS }, (_, i) => i + 1);
  return {
    cwlVersion: 'v1.0',
    class: 'Workflow',
    label: 'Five steps',
    inputs: [{ id: 'reads', type: 'File' }],
    outputs: [{ id: 'result', type: 'File', outputSource: `step${PUSH_STEPS}/output` }],
    steps: steps.map((i) => ({ id: `step${i}`, run: { ...tool(i), 'sbg:appVersion': ['v1.0'] }, in: [{ id: 'input', source: i === 1 ? 'reads' : `step${i - 1}/output` }], out: ['output'] })),
  };
}

/** The document packed, as the product packs it. */
export async function packedPush(files: Record<string, string>): Promise<RawApp> {
  const read = async (file: string) => {
    const text = files[path.relative(ROOT, file).split(path.sep).join('/')];
    if (text === undefined) throw new Error(`no ${file}`);
    return text;
  };
  const packed = (await packCwl(path.join(ROOT, 'workflow.cwl'), read, { root: ROOT })).cwl;
  assert.deepStrictEqual(packed, packedByHand(), 'the product packs what the official client is given');
  return packed;
}

export const pushWork: PeerWork<{ app: string; files: Record<string, string>; packed: Json }> = {
  id: 'push_revision',
  title: `pushing a packed workflow of ${PUSH_STEPS} steps as the next revision`,
  // It makes a revision: one run a process, three rounds on fresh emulators.
  runs: 1,
  rounds: 3,
  args: () => ({ app: APP, files: pushFiles(), packed: packedByHand() as Json }),
  async ours({ client, emulator }, { app, files }) {
    const account = { key: `${emulator.baseUrl}#${emulator.username}`, credentials: { endpoint: emulator.baseUrl, token: emulator.token } };
    const outbox = new Outbox(memoryState(), async () => account, [appRevisionWrite(client.apps), appInstallWrite(client.apps)]);
    outbox.start();
    try {
      const packed = await packedPush(files);
      const plan = planPush(app, packed, await client.apps.raw(app), 'workflow.cwl');
      const { finished, left } = await outbox.send<AppRevisionOutcome>(plan.kind, [plan.payload], account, { until: 'lookup', atMostMs: 10_000 });
      if (!finished.length) throw new Error(`the push did not go through: ${left.map((r) => r.note).join('; ')}`);
      return { revision: finished[0].outcome.revision };
    } finally {
      outbox.dispose();
    }
  },
  async ideals({ client, args }) {
    // The packing and the same two calls bare, timed apart on the emulator that served the run: a read of the latest,
    // one POST. (The official client is handed the packed document: its figure has no packing in it.)
    const packed = await packedPush(args.files);
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await packedPush(args.files);
      const latest = await client.apps.raw(args.app);
      await client.apps.createRevision(args.app, (latest['sbg:revision'] as number) + 1, packed);
      times.push(performance.now() - t);
    }
    const bare = times.sort((a, b) => a - b)[1];
    return {
      ms: { ideal: bare, limit: 2 * bare + 100, margin: '2 × ideal + 100 ms', note: 'ideal: packing the 6 files, a read of the latest revision and the POST, bare, timed apart; the official client is handed the packed document' },
      requests: { ideal: 2, limit: 3, margin: 'one POST to send, at most 2 to check the latest revision' },
      bytes: {},
      memoryMb: { limit: 16, margin: 'bound: 16 MB' },
    };
  },
};
