// Where the IDs of files and folders come from when no view hands them over: the active editor's selection, or an
// input box (the sources of "Copy Files and Folders…", the file to reveal).
import * as vscode from 'vscode';
import { count, itemCount } from '../util/words';
import { idsInEditorText, splitIdText } from './extract';
import { checkSources, sourceProblems } from './request';

/**
 * File and folder IDs: those in the active editor's selection (any text around them is ignored), else the ones typed
 * or pasted in an input box, whose malformed entries are named as they are typed (it cannot be accepted with them).
 * Undefined when the box was dismissed.
 */
export async function askForFileIds(title: string, prompt: string): Promise<string[] | undefined> {
  const fromEditor = editorIds();
  if (fromEditor.length) return fromEditor;
  const text = await vscode.window.showInputBox({
    title,
    prompt,
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
  return text?.trim() ? splitIdText(text) : undefined;
}

/** The prompt of the box when the IDs are a copy's sources. */
export const copySourcesPrompt = (): string => vscode.l10n.t('File and folder IDs to copy, separated by spaces, commas or new lines');

function editorIds(): string[] {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return [];
  const text = editor.selections.filter((s) => !s.isEmpty).map((s) => editor.document.getText(s)).join('\n');
  return text ? idsInEditorText(text) : [];
}

/** "3 items", "3 items; 1 duplicate will be dropped": what the box holds so far. */
function idsFound(items: number, duplicates: number): string {
  const all = itemCount(items);
  if (!duplicates) return all;
  return duplicates === 1 ? vscode.l10n.t('{0}; 1 duplicate will be dropped', all) : vscode.l10n.t('{0}; {1} duplicates will be dropped', all, count(duplicates));
}
