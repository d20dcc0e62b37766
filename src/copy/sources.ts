// Where a copy's sources come from when no view hands them over: the active editor's selection, or an input box.
import * as vscode from 'vscode';
import type { Session } from '../auth/session';
import type { TrackedJob } from '../jobs/tracker';
import { COMMANDS } from '../keys/commands';
import { setTokenAction } from '../ui/errorActions';
import { count, itemCount } from '../util/words';
import { idsInEditorText, splitIdText } from './extract';
import { signInToCopy, type CopyCommandArgs, type CopyFlow, type CopySources } from './flow';
import { checkSources, sourceProblems } from './request';

/**
 * "Copy Files and Folders…": the sources are, in order, the IDs in the command's arguments, what a view has selected
 * (`selected`), the IDs in the editor's selection, the IDs typed in an input box.
 */
export async function copyFiles(session: Session, flow: CopyFlow, selected: CopySources | undefined, args: CopyCommandArgs = {}): Promise<TrackedJob[]> {
  if (!(await session.credentials())) {
    const chosen = await vscode.window.showWarningMessage(signInToCopy(), setTokenAction());
    if (chosen) await vscode.commands.executeCommand(COMMANDS.setToken);
    return [];
  }
  const sources: CopySources | undefined = args.ids ? { ids: args.ids } : (selected ?? editorSources() ?? (await askForIds()));
  if (!sources) return [];
  return flow.run(sources, args);
}

/** File IDs in the active editor's selection (any text around them is ignored). */
function editorSources(): CopySources | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const text = editor.selections.filter((s) => !s.isEmpty).map((s) => editor.document.getText(s)).join('\n');
  if (!text) return undefined;
  const ids = idsInEditorText(text);
  return ids.length ? { ids } : undefined;
}

/** IDs pasted or typed; malformed ones are named as they are typed and the box cannot be accepted with them. */
async function askForIds(): Promise<CopySources | undefined> {
  const text = await vscode.window.showInputBox({
    title: vscode.l10n.t('Copy Files and Folders'),
    prompt: vscode.l10n.t('File and folder IDs to copy, separated by spaces, commas or new lines'),
    placeHolder: '567890abc8a5639cc6722063, 567890abc8a5639cc6722064',
    ignoreFocusOut: true,
    validateInput: (value) => {
      const check = checkSources(splitIdText(value));
      const problems = sourceProblems(check);
      if (problems.length) return { message: problems.join(' '), severity: vscode.InputBoxValidationSeverity.Error };
      if (!check.ids.length) return undefined;
      return { message: idsFound(check.ids.length, check.duplicates), severity: vscode.InputBoxValidationSeverity.Info };
    },
  });
  if (!text?.trim()) return undefined;
  return { ids: splitIdText(text) };
}

/** "3 items", "3 items; 1 duplicate will be dropped": what the box holds so far. */
function idsFound(items: number, duplicates: number): string {
  const all = itemCount(items);
  if (!duplicates) return all;
  return duplicates === 1 ? vscode.l10n.t('{0}; 1 duplicate will be dropped', all) : vscode.l10n.t('{0}; {1} duplicates will be dropped', all, count(duplicates));
}
