// Find Files… asks what to find (a whole name, a part of one, a tag, a metadata field's value, the task that produced
// the files) and where (a project, all projects, or the folder or project its menu was opened on).
import * as vscode from 'vscode';
import { isTaskId, notTaskId } from '../api/ids';
import type { Project } from '../api/types';
import type { CommandOptions } from '../ui/commands';
import { paletteTitle } from '../ui/commands';
import { pickProject } from '../ui/projectPick';
import { commandTitles } from '../keys/commands';
import type { FindSpec } from './foundWords';

/** The conditions of a find: what a script passes in the options, or what the person is asked for. */
export type FindConditions = Pick<FindSpec, 'name' | 'namePart' | 'tag' | 'metadata' | 'task'>;

type By = 'name' | 'namePart' | 'tag' | 'metadata' | 'task';

/** The conditions a script names in its options (`{ name, namePart, tag, metadata: { field, value } | "field=value", task }`). */
export function namedConditions(options: CommandOptions): FindConditions | undefined {
  const text = (key: string) => (typeof options[key] === 'string' ? (options[key] as string) : undefined);
  const metadata = typeof options.metadata === 'string' ? metadataCondition(options.metadata) : readPair(options.metadata);
  const conditions: FindConditions = {
    ...(text('name') !== undefined ? { name: text('name') } : {}),
    ...(text('namePart') !== undefined ? { namePart: text('namePart') } : {}),
    ...(text('tag') !== undefined ? { tag: text('tag') } : {}),
    ...(metadata ? { metadata } : {}),
    ...(text('task') !== undefined ? { task: text('task') } : {}),
  };
  return Object.keys(conditions).length ? conditions : undefined;
}

function readPair(value: unknown): FindSpec['metadata'] {
  if (!value || typeof value !== 'object') return undefined;
  const { field, value: v } = value as { field?: unknown; value?: unknown };
  return typeof field === 'string' && typeof v === 'string' ? { field, value: v } : undefined;
}

/** "field=value" read as a metadata condition (the first "=" splits). */
function metadataCondition(text: string): FindSpec['metadata'] {
  const at = text.indexOf('=');
  return at > 0 ? { field: text.slice(0, at).trim(), value: text.slice(at + 1).trim() } : undefined;
}

/** Asks what to find; undefined when dismissed. */
export async function askConditions(): Promise<FindConditions | undefined> {
  const title = paletteTitle(commandTitles().findFiles);
  const choices: (vscode.QuickPickItem & { by: By })[] = [
    { by: 'name', label: vscode.l10n.t('Name'), description: vscode.l10n.t('the whole name, exactly') },
    { by: 'namePart', label: vscode.l10n.t('Part of a name'), description: vscode.l10n.t('any case; every entry looked through, 1,000 a load') },
    { by: 'tag', label: vscode.l10n.t('Tag') },
    { by: 'metadata', label: vscode.l10n.t('Metadata field and value'), description: vscode.l10n.t('field=value') },
    { by: 'task', label: vscode.l10n.t('Task that produced them'), description: vscode.l10n.t('the task\'s ID') },
  ];
  const by = await vscode.window.showQuickPick(choices, { title, placeHolder: vscode.l10n.t('Find files by…') });
  if (!by) return undefined;
  const value = await vscode.window.showInputBox({
    title,
    prompt: by.by === 'metadata' ? vscode.l10n.t('field=value, as in sample_id=S1') : by.label,
    ignoreFocusOut: true,
    validateInput: (text) => inputProblem(by.by, text),
  });
  if (value === undefined) return undefined;
  if (by.by === 'metadata') return { metadata: metadataCondition(value) };
  return { [by.by]: by.by === 'task' ? value.trim() : value };
}

function inputProblem(by: By, text: string): string | undefined {
  if (text.trim() === '') return vscode.l10n.t('Type what to find.');
  if (by === 'metadata' && !metadataCondition(text)?.field) return vscode.l10n.t('Type field=value, as in sample_id=S1.');
  if (by === 'task' && !isTaskId(text.trim())) return notTaskId(text.trim());
  return undefined;
}

/** Where to find, asked: one project, or all of them ('all'); undefined when dismissed. */
export async function askWhere(projects: Parameters<typeof pickProject>[0]): Promise<Project | 'all' | undefined> {
  const chosen = await pickProject(projects, {
    title: paletteTitle(commandTitles().findFiles),
    placeholder: vscode.l10n.t('Find in which project?'),
    allowReadOnly: true,
    none: { label: vscode.l10n.t('All projects'), description: vscode.l10n.t('every project you can see') },
  });
  return chosen === 'none' ? 'all' : chosen;
}
