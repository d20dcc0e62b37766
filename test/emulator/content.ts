/**
 * What bytes each file holds, and `GET /v2/files/{id}/download_info`, which points at them on the storage origin.
 *
 * A seeded file's bytes are generated from its ID and size, a 64 KiB piece at a time, so a 40 GB file costs no
 * memory and any `Range` of it is served without reading what comes before. By name:
 * - `.gz`, `.bgz`: valid gzip, one member per 64 KiB (stored deflate blocks), holding VCF-, FASTQ-, BED- or plain
 *   text lines (by the name under the `.gz`);
 * - `.bam`: BGZF (gzip members with the `BC` extra field, the standard 28-byte end block) holding `BAM\1` and binary;
 * - `.png`: a small valid image (the sample files are sized to it; any other size is served as binary);
 * - text names (`.txt`, `.tsv`, `.log`, `.html`, `.vcf`, `.bed`, …): ASCII lines; anything else: binary.
 * An uploaded file serves the bytes uploaded (uploads.ts); a task's log its text (execution.ts).
 *
 * Picks ([infer]): a folder's download_info is 400 "Downloading folders is not supported." (observed on the
 * platform); the ETag of a generated file is a hash of its ID and size (S3's is the MD5 of a single PUT, or of the
 * parts' MD5s with `-N` after a multipart upload: clients must not read meaning into it).
 */
import { createCipheriv, createHash } from 'crypto';
import * as zlib from 'zlib';
import { ApiError } from './errors';
import type { Ctx, Result } from './common';
import type { FileRec, Store } from './data';
import type { LogFile } from './execution';
import { Prng, isoZ } from './prng';

/** A file's bytes as the storage serves them: any inclusive range, as a sequence of chunks (never the whole file). */
export interface Blob {
  readonly size: number;
  /** Quoted, as S3 sends it. */
  readonly etag: string;
  readonly contentType: string;
  read(start: number, end: number): AsyncIterable<Buffer> | Iterable<Buffer>;
}

/** The bytes of every file the emulator knows, and the signed URL that serves them. */
export class FileContents {
  constructor(
    private readonly store: Store,
    private readonly logs: ReadonlyMap<string, LogFile>,
    private readonly uploaded: (id: string) => Blob | undefined,
    private readonly signedUrl: (where: { prefix: string; id: string; name: string }) => string,
  ) {}

  /** The bytes of a file, or undefined when there is no such file (any more). */
  blob(id: string): Blob | undefined {
    const log = this.logs.get(id);
    if (log) return bufferBlob(log.content, 'text/plain; charset=utf-8');
    const file = this.store.fileById.get(id);
    if (!file || file.type !== 'file') return undefined;
    const source = this.store.contentSource.get(id) ?? { id: file.id, name: file.name };
    return this.uploaded(source.id) ?? generatedBlob(source.id, source.name, file.size ?? 0);
  }

  downloadInfo(_ctx: Ctx, id: string): Result {
    const log = this.logs.get(id);
    if (log) return { status: 200, body: { url: this.signedUrl({ prefix: log.taskId, id, name: log.name }) } };
    const file = this.store.fileById.get(id);
    if (!file) throw new ApiError(404, 5002, 'Requested file does not exist.');
    if (file.type === 'folder') throw new ApiError(400, 90000, 'Downloading folders is not supported.');
    return { status: 200, body: { url: this.signedUrl({ prefix: file.project.replace('/', '-'), id, name: file.name }) } };
  }
}

export function bufferBlob(content: Buffer, contentType: string, etag = `"${createHash('md5').update(content).digest('hex')}"`): Blob {
  return { size: content.length, etag, contentType, read: (start, end) => [content.subarray(start, end + 1)] };
}

const PIECE = 64 * 1024;
const TEXT_EXTENSIONS = new Set(['txt', 'tsv', 'csv', 'log', 'html', 'vcf', 'bed', 'fastq', 'fq', 'sam', 'json', 'md', 'fa', 'fasta', 'gtf', 'gff', 'out', 'err']);
type Flavor = 'vcf' | 'fastq' | 'bed' | 'tsv' | 'log' | 'text';

/** The deterministic bytes of a seeded file. */
export function generatedBlob(id: string, name: string, size: number): Blob {
  const lower = name.toLowerCase();
  const etag = `"${createHash('md5').update(`${id}:${size}`).digest('hex')}"`;
  const seed = seedOf(id);
  const ext = (n: string) => /\.([a-z0-9]+)$/.exec(n)?.[1] ?? '';
  if (lower.endsWith('.png')) {
    const png = pngImage(id);
    if (png.length === size) return bufferBlob(png, 'image/png', etag);
  }
  if (lower.endsWith('.bam') && size >= BGZF.overhead + BGZF_EOF.length) {
    return membersBlob(size, etag, 'application/octet-stream', BGZF, (j, length) => binaryPiece(seed, j, length, j === 0 ? 'BAM\x01' : ''));
  }
  if ((lower.endsWith('.gz') || lower.endsWith('.bgz')) && size >= GZIP.overhead) {
    const flavor = flavorOf(ext(lower.replace(/\.b?gz$/, '')));
    return membersBlob(size, etag, 'application/gzip', GZIP, (j, length) => textPiece(id, seed, j, length, flavor));
  }
  if (TEXT_EXTENSIONS.has(ext(lower))) {
    const flavor = flavorOf(ext(lower));
    return piecesBlob(size, etag, 'text/plain; charset=utf-8', (j, length) => textPiece(id, seed, j, length, flavor));
  }
  return piecesBlob(size, etag, 'application/octet-stream', (j, length) => binaryPiece(seed, j, length, ''));
}

function flavorOf(ext: string): Flavor {
  if (ext === 'vcf') return 'vcf';
  if (ext === 'fastq' || ext === 'fq') return 'fastq';
  if (ext === 'bed') return 'bed';
  if (ext === 'tsv' || ext === 'csv') return 'tsv';
  if (ext === 'log' || ext === 'out' || ext === 'err') return 'log';
  return 'text';
}

/**
 * A few pieces kept, since consecutive small reads fall in the same piece. Only a piece a read takes part of is
 * kept: a large read's pieces are made, sent and dropped. Kept for the next 31 pieces, each of them outlived the
 * young generation, so a GiB read made a GiB of old garbage: the emulator spent 1.3–2.4 s of CPU per GiB served,
 * most of it collecting, against 0.46–0.62 s now with the bench's heap room (peerScenario.ts); it shares the bench's
 * two cores with the client it serves.
 */
class PieceCache {
  private readonly entries = new Map<string, Buffer>();
  /** The piece at `from` of `length` bytes, for a read of `start`–`end` (inclusive): kept only when the read takes part of it. */
  partOf(key: string, from: number, length: number, start: number, end: number, make: () => Buffer): Buffer {
    return start <= from && end >= from + length - 1 ? make() : this.get(key, make);
  }

  private get(key: string, make: () => Buffer): Buffer {
    let piece = this.entries.get(key);
    if (piece) {
      this.entries.delete(key);
    } else {
      piece = make();
      if (this.entries.size >= 32) this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, piece);
    return piece;
  }
}
const cache = new PieceCache();
let blobSeq = 0;

/** Bytes cut into pieces of 64 KiB (the last shorter), piece `j` made by `make(j, length)`. */
function piecesBlob(size: number, etag: string, contentType: string, make: (j: number, length: number) => Buffer): Blob {
  const key = `p${++blobSeq}`;
  return {
    size,
    etag,
    contentType,
    *read(start, end) {
      for (let j = Math.floor(start / PIECE); j * PIECE <= end; j++) {
        const from = j * PIECE;
        const length = Math.min(PIECE, size - from);
        const piece = cache.partOf(`${key}:${j}`, from, length, start, end, () => make(j, length));
        yield piece.subarray(Math.max(0, start - from), Math.min(piece.length, end + 1 - from));
      }
    },
  };
}

interface MemberFormat {
  /** header, stored-block header and trailer bytes of one member */
  overhead: number;
  header(length: number): Buffer;
  /** bytes after the last member */
  tail: Buffer;
}

const GZIP: MemberFormat = {
  overhead: 10 + 5 + 8,
  header: () => Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]),
  tail: Buffer.alloc(0),
};
const BGZF_EOF = Buffer.from('1f8b08040000000000ff0600424302001b0003000000000000000000', 'hex');
const BGZF: MemberFormat = {
  overhead: 18 + 5 + 8,
  header: (length) => {
    const h = Buffer.from([0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, 0x42, 0x43, 2, 0, 0, 0]);
    h.writeUInt16LE(length - 1, 16);
    return h;
  },
  tail: BGZF_EOF,
};

/**
 * A file of gzip members of 64 KiB each, payloads in stored (uncompressed) deflate blocks, so that its size is
 * exact and member `j` is made without the ones before it. When the last member would be too short to exist, the
 * one before it gives it room.
 */
function membersBlob(size: number, etag: string, contentType: string, format: MemberFormat, payload: (j: number, length: number) => Buffer): Blob {
  const key = `m${++blobSeq}`;
  const room = size - format.tail.length;
  const count = Math.max(1, Math.ceil(room / PIECE));
  const lastRoom = room - (count - 1) * PIECE;
  const short = lastRoom < format.overhead ? format.overhead - lastRoom : 0;
  const startOf = (j: number) => (j === count - 1 ? room - (lastRoom + short) : j * PIECE);
  const lengthOf = (j: number) => (j === count - 1 ? lastRoom + short : j === count - 2 ? PIECE - short : PIECE);
  const member = (j: number, start: number, end: number): Buffer =>
    cache.partOf(`${key}:${j}`, startOf(j), lengthOf(j), start, end, () => {
      const length = lengthOf(j);
      const data = payload(j, length - format.overhead);
      const block = Buffer.alloc(5);
      block[0] = 1;
      block.writeUInt16LE(data.length, 1);
      block.writeUInt16LE(~data.length & 0xffff, 3);
      const trailer = Buffer.alloc(8);
      trailer.writeUInt32LE(zlib.crc32(data), 0);
      trailer.writeUInt32LE(data.length, 4);
      return Buffer.concat([format.header(length), block, data, trailer]);
    });
  return {
    size,
    etag,
    contentType,
    *read(start, end) {
      let j = Math.min(count - 1, Math.floor(start / PIECE));
      while (j > 0 && startOf(j) > start) j--;
      for (; j < count && startOf(j) <= end; j++) {
        const from = startOf(j);
        if (from + lengthOf(j) <= start) continue;
        const bytes = member(j, start, end);
        yield bytes.subarray(Math.max(0, start - from), Math.min(bytes.length, end + 1 - from));
      }
      if (end >= room) yield format.tail.subarray(Math.max(0, start - room), end + 1 - room);
    },
  };
}

function seedOf(id: string): Buffer {
  return createHash('sha256').update(id).digest();
}

const ZEROS = Buffer.alloc(PIECE);

/** Pseudo-random bytes (AES-CTR over zeros: fast), `prefix` first. */
function binaryPiece(seed: Buffer, j: number, length: number, prefix: string): Buffer {
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(j, 8);
  const bytes = createCipheriv('aes-128-ctr', seed.subarray(0, 16), iv).update(ZEROS.subarray(0, length));
  bytes.write(prefix.slice(0, length), 'latin1');
  return bytes;
}

const BASES = 'ACGT';
const CHROMOSOMES = ['chr1', 'chr2', 'chr3', 'chr7', 'chr12', 'chr17', 'chrX'];
const WORDS = ['sample', 'reads', 'aligned', 'quality', 'coverage', 'variant', 'filter', 'passed', 'gene', 'region', 'depth', 'mapped'];

/** Random letters to cut reads and qualities from (a slice per line is much faster than a letter at a time). */
function pool(letters: string, seed: number): string {
  const rng = new Prng(seed);
  const codes = Buffer.alloc(1 << 16);
  for (let i = 0; i < codes.length; i++) codes[i] = letters.charCodeAt(Math.floor(rng.next() * letters.length));
  // One flat string: built by `+=`, it would be a rope of 65,536 pieces that every full collection of the process
  // walks (a bench worker loads this module to check its results, and paid for it in each collection).
  return codes.toString('latin1');
}
const BASE_POOL = pool(BASES, 11);
const QUALITY_POOL = pool('56789:;<=>?@ABCDEFGHI', 13);

function cut(from: string, rng: Prng, n: number): string {
  const at = Math.floor(rng.next() * (from.length - n));
  return from.slice(at, at + n);
}

function bases(rng: Prng, n: number): string {
  return cut(BASE_POOL, rng, n);
}

/**
 * ASCII lines of exactly `length` bytes: whole lines drawn from the flavour's pool of lines, then one line of padding
 * (`#` and spaces) to fill it. Drawing from a pool is what makes text as quick to serve as binary.
 */
function textPiece(id: string, seed: Buffer, j: number, length: number, flavor: Flavor): Buffer {
  const rng = new Prng(seed.readUInt32BE(0) ^ Math.imul(j + 1, 0x9e3779b1));
  const { lines, blocks } = linePool(flavor);
  const out: string[] = j === 0 ? headerLines(flavor, id) : [];
  let used = out.reduce((n, l) => n + l.length, 0);
  for (const from of [blocks, lines]) {
    for (;;) {
      const text = from[Math.floor(rng.next() * from.length)];
      if (used + text.length > length) break;
      out.push(text);
      used += text.length;
    }
  }
  while (used > length) used -= out.pop()!.length;
  const rest = length - used;
  if (rest > 0) out.push(rest === 1 ? '\n' : `#${' '.repeat(rest - 2)}\n`);
  return Buffer.from(out.join(''), 'latin1');
}

/** A flavour's lines, and blocks of 16 of them (to fill most of a piece 16 lines at a time). */
const pools = new Map<Flavor, { lines: string[]; blocks: string[] }>();
function linePool(flavor: Flavor): { lines: string[]; blocks: string[] } {
  let pool = pools.get(flavor);
  if (!pool) {
    const rng = new Prng(97 + flavor.length);
    const lines = Array.from({ length: 8192 }, (_, n) => lineOf(flavor, rng, n + 1));
    const blocks = Array.from({ length: 1024 }, () => Array.from({ length: 16 }, () => rng.pick(lines)).join(''));
    pool = { lines, blocks };
    pools.set(flavor, pool);
  }
  return pool;
}

function headerLines(flavor: Flavor, id: string): string[] {
  switch (flavor) {
    case 'vcf':
      return ['##fileformat=VCFv4.2\n', `##source=sevenbridges-emulator:${id}\n`, '##INFO=<ID=DP,Number=1,Type=Integer,Description="Total depth">\n', '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n'];
    case 'tsv':
      return ['gene_id\tsample\tcount\ttpm\n'];
    case 'bed':
      return ['track name="regions" description="emulated regions"\n'];
    default:
      return [];
  }
}

function lineOf(flavor: Flavor, rng: Prng, n: number): string {
  switch (flavor) {
    case 'vcf':
      return `${rng.pick(CHROMOSOMES)}\t${rng.int(10_000, 240_000_000)}\t.\t${bases(rng, 1)}\t${bases(rng, 1)}\t${rng.int(20, 99)}\tPASS\tDP=${rng.int(8, 120)}\n`;
    case 'fastq':
      return `@read_${n}/1\n${bases(rng, 76)}\n+\n${cut(QUALITY_POOL, rng, 76)}\n`;
    case 'bed': {
      const start = rng.int(10_000, 200_000_000);
      return `${rng.pick(CHROMOSOMES)}\t${start}\t${start + rng.int(100, 5000)}\tregion_${n}\t${rng.int(0, 1000)}\t${rng.chance(0.5) ? '+' : '-'}\n`;
    }
    case 'tsv':
      return `ENSG${String(rng.int(1, 99999)).padStart(11, '0')}\tsample_${String(rng.int(1, 96)).padStart(2, '0')}\t${rng.int(0, 50000)}\t${(rng.next() * 1000).toFixed(3)}\n`;
    case 'log':
      return `${isoZ(Date.UTC(2026, 0, 1) + n * 1000)} INFO  ${rng.pick(WORDS)} ${rng.pick(WORDS)} ${rng.int(0, 1e6)}\n`;
    default:
      return `${rng.pick(WORDS)} ${rng.pick(WORDS)} ${rng.pick(WORDS)} ${rng.int(0, 1e6)}\n`;
  }
}

/** A small PNG (RGB, 96×64), its colours drawn from the ID. */
export function pngImage(id: string): Buffer {
  const seed = seedOf(id);
  const [width, height] = [96, 64];
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const bar = Math.floor((x / width) * 6);
      const on = height - y < ((seed[bar] % 48) + 8);
      raw[row + 1 + x * 3] = on ? seed[6] : 250;
      raw[row + 2 + x * 3] = on ? seed[7] : 250;
      raw[row + 3 + x * 3] = on ? seed[8] : 250;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A folder of small sample files of every kind in the first project (`samples/`, with `qc/` inside, listed after the
 * root's other folders): text, gzipped
 * VCF and FASTQ, BED, BAM and its index, PNG images. Their IDs come from a hash of the seed, not from the data's
 * PRNG, so the rest of the seeded data is the same with or without them.
 */
export function addSamples(store: Store, seed: number): void {
  const project = store.projects[0];
  if (!project) return;
  const at = isoZ(store.startedAt - 3 * 86_400_000);
  const id = (name: string) => createHash('sha256').update(`samples:${seed}:${name}`).digest('hex').slice(0, 24);
  const add = (name: string, parent: string, type: FileRec['type'], size?: number): FileRec =>
    store.addFile({ id: id(`${parent}/${name}`), name, size, project: project.id, parent, type, created_on: at, modified_on: at, origin: {}, tags: [], metadata: {} });
  const folder = add('samples', project.root_folder, 'folder');
  // Listed with the root's other folders (the seeded listing has its folders first), not after its files.
  const rootList = store.children(project.root_folder);
  rootList.splice(rootList.findIndex((f) => f.type === 'file'), 0, rootList.pop()!);
  const qc = add('qc', folder.id, 'folder');
  const files: [string, string, number][] = [
    ['README.txt', folder.id, 1_200],
    ['sample_01.vcf.gz', folder.id, 180_000],
    ['sample_01_R1.fastq.gz', folder.id, 420_000],
    ['regions.bed', folder.id, 24_000],
    ['sample_01.bam', folder.id, 2_500_000],
    ['sample_01.bam.bai', folder.id, 36_000],
    ['metrics.tsv', qc.id, 8_000],
  ];
  for (const [name, parent, size] of files) add(name, parent, 'file', size);
  for (const [name, parent] of [['coverage.png', folder.id], ['qc_plot.png', qc.id]]) {
    const fileId = id(`${parent}/${name}`);
    add(name, parent, 'file', pngImage(fileId).length);
  }
}
