// The platform the waits are measured on: the emulator's tasks with exactly 4,000 completed; a project of 50,000 files
// some of them tagged (Find Files' data); in the first project a folder of 200 small files (Download…) and a folder of
// 3 MB text files, one per timed click (the product keeps what it read of a file for the next look).
import type { Emulator, FileRec, TaskRec } from '../../../test/emulator';
import { addSearchData } from '../searchScenario';
import { SMALL_SIZE } from '../peer/transfers';

/** The group opened: its status, and how many tasks it holds. */
export const GROUP_STATUS = 'COMPLETED';
export const GROUP_TASKS = 4_000;
export const DOWNLOAD_FOLDER = 'bench-200-files';
export const DOWNLOAD_FILES = 200;
export const TEXT_FOLDER = 'bench-text-files';
export const TEXT_FILE_BYTES = 3_000_000;
/** The part of a text file's first line the editor is watched for: up to its first tab (the editor draws a tab as spaces). */
const NEEDLE_CHARS = 40;

export interface WaitsData {
  /** `owner/project` holding the two folders. */
  project: string;
  projectName: string;
  /** The project searched, and the names of its files carrying the tag. */
  searchProject: string;
  searchProjectName: string;
  tagged: string[];
  downloadFolder: FileRec;
  /** The 3 MB text files: a name and the start of its first line, per latency and run. */
  textFile(latencyMs: number, run: number): { name: string; id: string; firstLine: string };
  /** What Run Task's documents name: the app (with its latest revision) and the files of its two required inputs. */
  taskApp: { app: string; bam: string; reference: string };
}

/** The app Run Task's documents run: every kind of input, two of them required files (test/emulator/appSeeds.ts). */
export const TASK_APP = 'rfranklin/my-project/variant-filter';

const stamp = (emulator: Emulator) => new Date(emulator.data.startedAt).toISOString().slice(0, 19) + 'Z';

function addFolder(emulator: Emulator, project: { id: string; root_folder: string }, name: string): FileRec {
  const data = emulator.data;
  return data.addFile({ id: data.newFileId(), name, project: project.id, parent: project.root_folder, type: 'folder', created_on: stamp(emulator), modified_on: stamp(emulator), origin: {}, tags: [], metadata: {} });
}

function addFile(emulator: Emulator, folder: FileRec, name: string, size: number): FileRec {
  const data = emulator.data;
  return data.addFile({ id: data.newFileId(), name, size, project: folder.project, parent: folder.id, type: 'file', created_on: stamp(emulator), modified_on: stamp(emulator), origin: {}, tags: [], metadata: {} });
}

/** Takes completed tasks out (top-level ones, neither batch parents nor children) until `GROUP_TASKS` are left. */
function trimGroup(emulator: Emulator): void {
  const data = emulator.data;
  const inGroup = (t: TaskRec) => t.status === GROUP_STATUS;
  const removable = data.tasks.filter((t) => inGroup(t) && !t.batch && !t.parent);
  const excess = data.tasks.filter(inGroup).length - GROUP_TASKS;
  if (excess < 0 || excess > removable.length) throw new Error(`the emulator has ${data.tasks.filter(inGroup).length} ${GROUP_STATUS} tasks: ${GROUP_TASKS} cannot be had by taking some out`);
  for (const t of removable.slice(0, excess)) data.removeTask(t);
}

async function firstLine(emulator: Emulator, id: string): Promise<string> {
  const blob = emulator.contentOf(id)!;
  const chunks: Buffer[] = [];
  for await (const chunk of blob.read(0, 4095)) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8').split('\n')[0].split('\t')[0].slice(0, NEEDLE_CHARS);
}

export async function addWaitsData(emulator: Emulator, latencies: readonly number[], runs: number): Promise<WaitsData> {
  trimGroup(emulator);
  const [home, searched] = emulator.data.projects;
  const { tagged } = addSearchData(emulator, searched);
  const downloadFolder = addFolder(emulator, home, DOWNLOAD_FOLDER);
  for (let i = 1; i <= DOWNLOAD_FILES; i++) addFile(emulator, downloadFolder, `small-${String(i).padStart(3, '0')}.txt`, SMALL_SIZE);
  const textFolder = addFolder(emulator, home, TEXT_FOLDER);
  const texts = new Map<string, { name: string; id: string; firstLine: string }>();
  for (const latencyMs of latencies) {
    for (let run = 1; run <= runs; run++) {
      const name = `table-${latencyMs}ms-${run}.tsv`;
      const file = addFile(emulator, textFolder, name, TEXT_FILE_BYTES);
      texts.set(`${latencyMs}/${run}`, { name, id: file.id, firstLine: await firstLine(emulator, file.id) });
    }
  }
  const app = emulator.data.apps.get(TASK_APP);
  if (!app || app.project !== home.id) throw new Error(`the emulator has no app ${TASK_APP} in ${home.id}`);
  const taskApp = {
    app: `${TASK_APP}/${app.revisions.length - 1}`,
    bam: addFile(emulator, textFolder, 'bench-sample.bam', 1_000_000).id,
    reference: addFile(emulator, textFolder, 'bench-reference.fa', 1_000_000).id,
  };
  return {
    taskApp,
    project: home.id,
    projectName: home.name,
    searchProject: searched.id,
    searchProjectName: searched.name,
    tagged,
    downloadFolder,
    textFile: (latencyMs, run) => texts.get(`${latencyMs}/${run}`)!,
  };
}
