// What drawing takes in the same host, at the same moment: a helper extension installed beside the product that draws
// what each case ends with from memory, with no request — rows with counts in a tree after an input box's Enter, a
// group of 100 rows opened, a 1 MB document of a file system provider opened from a row, the folder question of
// Download… (VS Code's own open dialog) then a notification. The bench times the same actions on it as on the
// product: their times are the drawing part of each case's ideal.
import { installHelperExtension } from '../../../test/harness/runnerExtension';

export const FLOOR_EXTENSION_ID = 'sbg-bench.draw-floor';
/** Its view, in the Explorer (the Seven Bridges side bar keeps its own layout). */
export const FLOOR_VIEW_NAME = 'Drawing Floor';
export const FLOOR_COMMANDS = { fill: 'Drawing Floor: Show the Rows', clear: 'Drawing Floor: Clear the Rows' } as const;
export const FLOOR_DOWNLOAD_ENTRY = 'Download (floor)…';
export const FLOOR_SUMMARY = 'Downloaded 200 files (floor).';
/** The rows the fill draws: as many as the task tree's groups, each with a count. */
export const FLOOR_GROUPS = Array.from({ length: 7 }, (_, i) => ({ label: `Group ${i + 1}`, description: (4000 + i).toLocaleString('en-US') }));
export const FLOOR_FOLDER = 'floor-folder';
export const FLOOR_ROWS_PER_GROUP = 100;
/** A 1 MB text document per file row: the part of a large file the product opens. */
export const FLOOR_FILE_BYTES = 1024 * 1024;
export const floorFileName = (i: number): string => `floor-${i}.txt`;
export const floorFileFirstLine = (i: number): string => `floor document ${i}: its first line`;

/** Installs the helper into a code-server's extensions folder, with `files` file rows (one per timed open: VS Code keeps an opened document). */
export function installFloorExtension(extensionsDir: string, files: number): void {
  installHelperExtension(extensionsDir, {
    id: FLOOR_EXTENSION_ID,
    displayName: 'Drawing floor (bench)',
    activationEvents: ['onStartupFinished'],
    main: floorMain(files),
    contributes: {
      views: { explorer: [{ id: 'sbgBenchFloor.rows', name: FLOOR_VIEW_NAME }] },
      commands: [
        { command: 'sbgBenchFloor.fill', title: FLOOR_COMMANDS.fill },
        { command: 'sbgBenchFloor.clear', title: FLOOR_COMMANDS.clear },
        { command: 'sbgBenchFloor.download', title: FLOOR_DOWNLOAD_ENTRY },
      ],
      menus: { 'view/item/context': [{ command: 'sbgBenchFloor.download', when: 'view == sbgBenchFloor.rows && viewItem == folder' }] },
    },
  });
}

function floorMain(files: number): string {
  return `const vscode = require('vscode');
const GROUPS = ${JSON.stringify(FLOOR_GROUPS)};
const FILES = ${files};
const PER_GROUP = ${FLOOR_ROWS_PER_GROUP};
const FILE_BYTES = ${FLOOR_FILE_BYTES};
const NAMES = ${JSON.stringify(Array.from({ length: files + 1 }, (_, i) => floorFileName(i)))};
const FIRST_LINES = ${JSON.stringify(Array.from({ length: files + 1 }, (_, i) => floorFileFirstLine(i)))};
const fileName = (i) => NAMES[i];
const firstLine = (i) => FIRST_LINES[i];
function documentText(i) {
  const lines = [firstLine(i)];
  let size = lines[0].length + 1;
  for (let n = 2; size < FILE_BYTES; n++) {
    const line = 'row ' + n + '\\tsample_' + (n % 97) + '\\t' + (n * 7919 % 100003) + '\\tPASS\\tchr' + (n % 22 + 1);
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(lines.join('\\n'));
}
exports.activate = (context) => {
  let filled = false;
  const changed = new vscode.EventEmitter();
  const groups = GROUPS.map((g, i) => ({ kind: 'group', id: 'g' + i, ...g }));
  const folder = { kind: 'folder', id: 'folder', label: ${JSON.stringify(FLOOR_FOLDER)} };
  const files = Array.from({ length: FILES }, (_, i) => ({ kind: 'file', id: 'f' + (i + 1), label: fileName(i + 1), index: i + 1 }));
  const provider = {
    onDidChangeTreeData: changed.event,
    getChildren: (node) => {
      if (!node) return filled ? [...groups, folder, ...files] : [];
      if (node.kind !== 'group') return [];
      return Array.from({ length: PER_GROUP }, (_, i) => ({ kind: 'row', id: node.id + '.' + i, label: 'Task ' + (i + 1) + ' of ' + node.label, description: 'ended 3 days ago · rfranklin/rna-seq' }));
    },
    getTreeItem: (node) => {
      const item = new vscode.TreeItem(node.label, node.kind === 'group' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
      item.id = node.id;
      item.description = node.description;
      item.contextValue = node.kind;
      item.iconPath = new vscode.ThemeIcon(node.kind === 'folder' ? 'folder' : node.kind === 'file' ? 'file' : 'pass');
      if (node.kind === 'file') item.command = { command: 'sbgBenchFloor.open', title: 'Open', arguments: [node.index] };
      return item;
    },
  };
  const view = vscode.window.createTreeView('sbgBenchFloor.rows', { treeDataProvider: provider });
  // A closed group's rows are read again when it is next opened, as the product's groups are.
  view.onDidCollapseElement((e) => changed.fire(e.element));
  const fsChanged = new vscode.EventEmitter();
  const stat = () => ({ type: vscode.FileType.File, ctime: 0, mtime: 0, size: FILE_BYTES });
  context.subscriptions.push(
    view,
    vscode.workspace.registerFileSystemProvider('sbgbenchfloor', {
      onDidChangeFile: fsChanged.event,
      watch: () => ({ dispose() {} }),
      stat,
      readDirectory: () => [],
      createDirectory: () => undefined,
      readFile: (uri) => documentText(Number(/floor-(\\d+)/.exec(uri.path)[1])),
      writeFile: () => { throw vscode.FileSystemError.NoPermissions(); },
      delete: () => { throw vscode.FileSystemError.NoPermissions(); },
      rename: () => { throw vscode.FileSystemError.NoPermissions(); },
    }, { isReadonly: true }),
    vscode.commands.registerCommand('sbgBenchFloor.fill', () => {
      const box = vscode.window.createInputBox();
      box.title = 'Drawing floor: press Enter';
      box.onDidAccept(() => {
        filled = true;
        changed.fire();
        box.dispose();
      });
      box.show();
    }),
    vscode.commands.registerCommand('sbgBenchFloor.clear', () => {
      filled = false;
      changed.fire();
    }),
    vscode.commands.registerCommand('sbgBenchFloor.open', async (i) => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'sbgbenchfloor', path: '/' + fileName(i) }));
      await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: true });
    }),
    vscode.commands.registerCommand('sbgBenchFloor.download', async () => {
      const first = (vscode.workspace.workspaceFolders || []).find((f) => f.uri.scheme === 'file');
      const chosen = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, openLabel: 'Download Here', ...(first ? { defaultUri: first.uri } : {}) });
      if (chosen) void vscode.window.showInformationMessage(${JSON.stringify(FLOOR_SUMMARY)});
    }),
  );
};
exports.deactivate = () => {};
`;
}
