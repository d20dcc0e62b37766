// How a file is cut for transfer: the parts of a multipart upload (platform-api.md §8.5) and the byte ranges of a download.
// Pure arithmetic, no I/O.

export const MiB = 1024 * 1024;
/** A part's smallest size (all but the last part), its largest, and the most parts an upload may have. */
export const MIN_PART = 5 * MiB;
export const MAX_PART = 5 * 1024 * MiB;
export const MAX_PARTS = 10_000;
/** The largest file the platform takes (5 TiB). */
export const MAX_UPLOAD_SIZE = 5 * 1024 * 1024 * MiB;
/**
 * The largest size a file is believed to have (64 TiB), far above the largest object a cloud storage keeps (5 TiB on
 * Google Cloud Storage, a few tens of TB on S3): a larger size, from a listing or an answer, is not a file's.
 */
export const MAX_FILE_SIZE = 64 * 1024 * 1024 * MiB;
/** The part size the official clients ask for. */
export const RECOMMENDED_PART = 32 * MiB;
/**
 * A signed URL (an upload part's, a file's download URL) asked for longer ago than this is asked for again before it
 * is used: their lifetime is not documented (platform-api.md), and an expired one costs a refusal and a try.
 */
export const SIGNED_URL_FRESH_MS = 60_000;

/** A stretch of a file: its bytes `start` to `end - 1`; for an upload part, its number (from 1). */
export interface Span {
  number: number;
  start: number;
  end: number;
}

/** The part size to ask for: 32 MiB, or more for a file that would need more than 10,000 parts (whole MiB). */
export function uploadPartSize(size: number): number {
  return Math.min(MAX_PART, Math.max(RECOMMENDED_PART, Math.ceil(size / MAX_PARTS / MiB) * MiB));
}

/**
 * The parts of a file of `size` bytes at `partSize` (the server's answer, which wins over the size asked for):
 * `ceil(size / partSize)` parts, at least one (an empty file is one empty part).
 */
export function uploadParts(size: number, partSize: number): Span[] {
  if (!Number.isInteger(partSize) || partSize <= 0) throw new RangeError(`part size ${partSize}`);
  const count = Math.max(1, Math.ceil(size / partSize));
  return Array.from({ length: count }, (_, i) => ({ number: i + 1, start: i * partSize, end: Math.min(size, (i + 1) * partSize) }));
}

/**
 * The ranges a download fetches, several at once: enough of them to keep `connections` busy on a large file
 * (two per connection), each 8 to 64 MiB (whole MiB) so that a retry repeats little and a request carries a lot.
 * A file smaller than 8 MiB is one range.
 */
export function downloadRanges(size: number, connections: number): Span[] {
  if (size <= 0) return [];
  const wanted = Math.ceil(size / Math.max(1, connections * 2) / MiB) * MiB;
  const rangeSize = Math.min(64 * MiB, Math.max(8 * MiB, wanted));
  const count = Math.ceil(size / rangeSize);
  return Array.from({ length: count }, (_, i) => ({ number: i + 1, start: i * rangeSize, end: Math.min(size, (i + 1) * rangeSize) }));
}
