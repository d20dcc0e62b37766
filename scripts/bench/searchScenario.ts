// Find Files in a project of 50,000 files (500 folders of 100), by tag and by a part of a name: the extension's
// FileFinder pages through the server search's answer, one request a page of 100. By tag the platform picks the
// files; a part of a name has no operator in the documented query language (contract §10.2), so the search reads
// every entry below the root and the names are compared here. Naive: walk every folder and look through it here (what
// a client without the search must do), counted.
import { FileFinder } from '../../src/files/find';
import type { FindSpec } from '../../src/files/foundWords';
import type { Emulator, ProjectRec } from '../../test/emulator';
import { clientFor, freshEmulator, sent, tally } from './env';
import type { Figure } from './figures';

const FOLDERS = 500;
const PER_FOLDER = 100;
export const SEARCH_FILES = FOLDERS * PER_FOLDER;
/** The tag searched for. */
export const SEARCH_TAG = 'tumor';
const PAGE = 100;
/** One file in this many is tagged, and one in this many is named `…_tumor_…`. */
const TAGGED_EVERY = 40;
const NAMED_EVERY = 125;

export interface SearchResult {
  what: string;
  found: number;
  /** Entries looked through to find them (a part of a name: every entry below the root), when told. */
  looked?: number;
  requests: number;
  ms: number;
}

/** The search's data in `project`: 500 folders of 100 files, some tagged `tumor`, some with `tumor` inside their names; the names of those tagged. */
export function addSearchData(emulator: Emulator, project: ProjectRec = emulator.data.projects[0]): { project: string; tagged: string[] } {
  const data = emulator.data;
  const stamp = new Date(data.startedAt).toISOString().slice(0, 19) + 'Z';
  const tagged: string[] = [];
  for (let f = 0; f < FOLDERS; f++) {
    const folder = data.addFile({ id: data.newFileId(), name: `sample_${f}`, project: project.id, parent: project.root_folder, type: 'folder', created_on: stamp, modified_on: stamp, origin: {}, tags: [], metadata: {} });
    for (let i = 0; i < PER_FOLDER; i++) {
      const n = f * PER_FOLDER + i;
      const name = n % NAMED_EVERY === 0 ? `s${n}_tumor_reads.bam` : `s${n}_reads.bam`;
      const tags = n % TAGGED_EVERY === 0 ? [SEARCH_TAG] : [];
      if (tags.length) tagged.push(name);
      data.addFile({ id: data.newFileId(), name, size: 1_000, project: project.id, parent: folder.id, type: 'file', created_on: stamp, modified_on: stamp, origin: {}, tags, metadata: {} });
    }
  }
  return { project: project.id, tagged };
}

export async function searchFiles(): Promise<SearchResult[]> {
  const emulator = await freshEmulator({ tasks: 100, files: 100 });
  try {
    const { project } = addSearchData(emulator);
    const client = clientFor(emulator);
    const finder = new FileFinder(client);
    const results: SearchResult[] = [];
    const run = async (what: string, spec: FindSpec) => {
      const since = sent(client).mark();
      const started = performance.now();
      const found = finder.find(spec);
      await found.listing.ensureLoaded();
      while (found.listing.hasMore) {
        await found.listing.loadMore();
        if (found.listing.error) throw found.listing.error;
      }
      if (found.listing.error) throw found.listing.error;
      results.push({ what, found: found.listing.items.length, looked: found.looked?.entries, requests: since(), ms: performance.now() - started });
    };
    await run(`by tag "${SEARCH_TAG}"`, { projects: [project], tag: SEARCH_TAG });
    await run('by a part of a name, "tumor"', { projects: [project], namePart: 'tumor' });
    tally(`find files in ${SEARCH_FILES.toLocaleString('en-US')}`, 'extension', emulator, client);
    return results;
  } finally {
    await emulator.close();
  }
}

export function searchFigures(results: readonly SearchResult[]): Figure[] {
  const section = 'Find Files';
  // Without the search: every folder's listing, a page of 100 each, and the root's 5 pages of folders.
  const naive = FOLDERS * Math.ceil(PER_FOLDER / PAGE) + Math.ceil(FOLDERS / PAGE);
  return results.flatMap((r): Figure[] => {
    // Found by the platform: a page of each 100 found; names compared here: a page of each 100 entries below the root.
    const pages = Math.max(1, Math.ceil((r.looked ?? r.found) / PAGE));
    return [
      {
        section,
        name: `in a project of ${SEARCH_FILES.toLocaleString('en-US')} files (${FOLDERS} folders), ${r.what}: requests for all ${r.found.toLocaleString('en-US')} found`,
        unit: 'req',
        value: r.requests,
        ideal: pages,
        limit: pages,
        margin: r.looked === undefined ? 'exact: one request a page of 100 found' : `exact: one request a page of 100 of the ${r.looked.toLocaleString('en-US')} entries looked through (no part-of-a-name operator is documented)`,
        naive,
        naiveNote: 'every folder listed and looked through here',
        note: `${Math.round(r.ms)} ms on loopback`,
      },
    ];
  });
}
