// Where an import or an upload goes: a project, then a folder; "Back" at the project's root returns to the projects.
import * as assert from 'assert';
import { projectThenFolder, type FolderStep } from '../../../src/copy/destinationSteps';

/** Answers the steps in turn, and records which step was asked. */
function answers(projects: (string | undefined)[], folders: FolderStep<string>[]) {
  const asked: string[] = [];
  return {
    asked,
    askProject: async () => (asked.push('project'), projects.shift()),
    askFolder: async (project: string) => (asked.push(`folder of ${project}`), folders.shift() ?? {}),
  };
}

describe('a project, then a folder in it', () => {
  it('Back at the project\'s root asks for the project again; the folder then chosen is the answer', async () => {
    const a = answers(['p1', 'p2'], [{ back: true }, { destination: 'p2/fastq' }]);
    assert.deepStrictEqual(await projectThenFolder(a.askProject, a.askFolder), { project: 'p2', destination: 'p2/fastq' });
    assert.deepStrictEqual(a.asked, ['project', 'folder of p1', 'project', 'folder of p2']);
  });

  it('Escape at either step ends with nothing chosen', async () => {
    const atProject = answers([undefined], []);
    assert.strictEqual(await projectThenFolder(atProject.askProject, atProject.askFolder), undefined);
    assert.deepStrictEqual(atProject.asked, ['project']);
    const atFolder = answers(['p1'], [{}]);
    assert.strictEqual(await projectThenFolder(atFolder.askProject, atFolder.askFolder), undefined);
    assert.deepStrictEqual(atFolder.asked, ['project', 'folder of p1']);
  });
});
