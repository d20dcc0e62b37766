// Which of the two network stacks VS Code hands an extension reads a GiB for less CPU, through the product's storage
// client (src/api/storage.ts, its checks and its chunks as the download engine takes them): Node's `http`, to which
// the extension host applies the user's proxy and certificates (`nodeStorageFetch`, what the product uses), or the
// global `fetch` (undici), which the extension host patches with the same (`http.fetchAdditionalSupport`, on by
// default in VS Code 1.100 and 1.139). Measured on plain Node, outside VS Code: the stacks as Node ships them, without
// the host's proxy layer on either. Nothing is written to disk.
//
//   node out/scripts/bench/networkStackProbe.js [rounds]
//
// The emulator serves in a process of its own; each stack reads in a fresh process, in turn, `rounds` times (3), and
// prints its process's user + system CPU seconds for 1 GiB (16 ranges of 64 MiB, 8 at once, as the engine reads).
import { fork } from 'child_process';
import { StorageClient } from '../../src/api/storage';
import type { StorageFetch } from '../../src/api/storageFetch';
import { freshEmulator } from './env';

const GiB = 2 ** 30;
const RANGE = 64 * 2 ** 20;
const CONNECTIONS = 8;
/**
 * The global fetch for reads (a GET has no body); each chunk handed on as a Buffer over its bytes, not copied (the
 * storage client copies any other Uint8Array, which `http` would not pay).
 */
const globalFetch: StorageFetch = async (url, { method, headers, signal }) => {
  const answer = await fetch(url, { method, headers, signal });
  const stream = answer.body;
  async function* buffers(): AsyncIterable<Buffer> {
    for await (const chunk of stream!) yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
  return { status: answer.status, headers: answer.headers, body: stream && buffers() };
};
const STACKS = { http: undefined, fetch: globalFetch } satisfies Record<string, StorageFetch | undefined>;
type Stack = keyof typeof STACKS;
interface Served {
  url: string;
}

/** Child: reads the GiB with one stack; prints its CPU seconds. */
async function read(stack: Stack, url: string): Promise<void> {
  const sink = Buffer.allocUnsafe(512 * 1024);
  let bytes = 0;
  const take = (chunk: Uint8Array) => {
    // As the engine does: each chunk copied into a write buffer, then let go.
    Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length).copy(sink, 0, 0, Math.min(chunk.length, sink.length));
    bytes += chunk.length;
  };
  const storage = new StorageClient({ fetch: STACKS[stack] });
  const before = process.cpuUsage();
  let next = 0;
  const lane = async () => {
    while (next < GiB) {
      const start = next;
      next += RANGE;
      const read = await storage.read(url, { start, end: start + RANGE - 1 });
      for await (const chunk of read.body) take(chunk);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, lane));
  const used = process.cpuUsage(before);
  if (bytes !== GiB) throw new Error(`${stack} read ${bytes} bytes`);
  process.send!({ cpuSeconds: (used.user + used.system) / 1e6 }, () => process.exit(0));
}

/** Child: the emulator with one file of 1 GiB; sends its signed URL, serves until killed. */
async function serve(): Promise<void> {
  const emulator = await freshEmulator({ tasks: 10, files: 10 });
  const { data } = emulator;
  const project = data.projects.find((p) => p.permissions.write)!;
  const stamp = new Date().toISOString().slice(0, 19) + 'Z';
  const id = data.newFileId();
  data.addFile({ id, name: 'big.bin', size: GiB, project: project.id, parent: project.root_folder, type: 'file', created_on: stamp, modified_on: stamp, origin: {}, tags: [], metadata: {} });
  const answer = await fetch(`${emulator.baseUrl}/files/${id}/download_info`, { headers: { 'X-SBG-Auth-Token': emulator.token } });
  process.send!({ url: ((await answer.json()) as Served).url } satisfies Served);
}

function child<T>(args: string[]): { message: Promise<T>; kill(): void } {
  const process = fork(__filename, args, { stdio: 'inherit' });
  const message = new Promise<T>((resolve, reject) => {
    process.once('message', (m) => resolve(m as T));
    // After its message, its end is no news (a message may come in after the exit: `close` waits for it).
    process.once('close', (code) => reject(new Error(`${args.join(' ')} ended (${code}) without its figure`)));
  });
  return { message, kill: () => process.kill() };
}

async function main(): Promise<void> {
  const [role, ...rest] = process.argv.slice(2);
  if (role === 'serve') return serve();
  if (role === 'read') return read(rest[0] as Stack, rest[1]);
  const rounds = role === undefined ? 3 : Number(role);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`rounds: a whole number of at least 1, not ${role}`);
  const server = child<Served>(['serve']);
  try {
    const { url } = await server.message;
    const stacks = Object.keys(STACKS) as Stack[];
    const seconds = new Map(stacks.map((stack) => [stack, [] as number[]]));
    for (let round = 0; round < rounds; round++) {
      for (const stack of stacks) seconds.get(stack)!.push((await child<{ cpuSeconds: number }>(['read', stack, url]).message).cpuSeconds);
    }
    for (const stack of stacks) console.log(`${stack.padEnd(6)} ${seconds.get(stack)!.map((s) => s.toFixed(2)).join(' ')} s of CPU per GiB`);
  } finally {
    server.kill();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
