// An app opened (Browse Apps…): one read-only Markdown page of what a person needs to run it — what it is, its inputs
// (id, label, type, required or optional, default, file types), its outputs and its revisions — read from the CWL of
// the revision opened. Its CWL itself is the revision's `.cwl` document (appDocuments.ts). No `vscode`.
import * as l10n from '@vscode/l10n';
import type { RawApp } from '../api/apps';
import { codeSpan as code, escapeMarkdown } from '../util/markdown';
import { formatUtc } from '../util/time';
import { revisionWords } from '../util/words';
import { pulledRevision, revisionsOf } from './appRevisions';
import { appInputs, appOutputs, appSummary, needWords, optionalWords, typeName } from './cwlInputs';

/** An app's page: `app` is `owner/project/app`, `revision` the one shown, `cwl` that revision's raw CWL. */
export function renderAppPage(app: string, revision: number, cwl: RawApp): string {
  const summary = appSummary(cwl);
  const project = app.split('/').slice(0, 2).join('/');
  const latest = typeof cwl['sbg:latestRevision'] === 'number' ? cwl['sbg:latestRevision'] : pulledRevision(cwl);
  const shown = latest !== undefined && latest !== revision
    ? l10n.t({ message: '{0} (the latest is {1})', args: [revisionWords(revision), latest], comment: ['{0}: "revision 3"'] })
    : revisionWords(revision);
  const kind = [summary.className, summary.cwlVersion ? `CWL ${summary.cwlVersion}` : undefined].filter(Boolean).join(', ');
  const lines = [
    `# ${escapeMarkdown(summary.label ?? app.split('/')[2])}`,
    '',
    `${code(app)} · ${shown} · ${l10n.t('project {0}', escapeMarkdown(project))}`,
    '',
  ];
  const about = [
    summary.toolkit ? l10n.t('Toolkit: {0}', escapeMarkdown(summary.toolkit)) : undefined,
    kind ? escapeMarkdown(kind) : undefined,
    summary.steps ? l10n.t('{0} steps', summary.steps) : undefined,
  ].filter(Boolean);
  if (about.length) lines.push(about.join(' · '), '');
  const words = columnWords();
  lines.push(`## ${l10n.t({ message: 'Inputs', comment: ['A heading of an app\'s page'] })}`, '');
  const inputs = appInputs(cwl);
  if (inputs.length) {
    lines.push(row([words.id, words.label, words.type, l10n.t('Needed'), l10n.t('Default'), words.fileTypes]), row(Array(6).fill('---')));
    for (const i of inputs) {
      const need = i.required ? needWords(i) : optionalWords();
      const given = i.default !== undefined ? code(JSON.stringify(i.default)) : i.toolDefault ? l10n.t('{0} (the tool\'s own)', escapeMarkdown(i.toolDefault)) : '';
      lines.push(row([code(i.id), escapeMarkdown(i.label ?? ''), code(typeName(i.type)), need, given, escapeMarkdown(i.fileTypes.join(', '))]));
    }
  } else lines.push(l10n.t('This app takes no inputs.'));
  lines.push('', `## ${l10n.t({ message: 'Outputs', comment: ['A heading of an app\'s page'] })}`, '');
  const outputs = appOutputs(cwl);
  if (outputs.length) {
    lines.push(row([words.id, words.label, words.type, words.fileTypes]), row(Array(4).fill('---')));
    for (const o of outputs) lines.push(row([code(o.id), escapeMarkdown(o.label ?? ''), code(`${typeName(o.type)}${o.optional ? '?' : ''}`), escapeMarkdown(o.fileTypes.join(', '))]));
  } else lines.push(l10n.t('This app declares no outputs.'));
  const revisions = revisionsOf(cwl);
  if (revisions.length) {
    lines.push('', `## ${l10n.t('Revisions')}`, '', row([l10n.t('Revision'), l10n.t('By'), l10n.t('When'), l10n.t('Notes')]), row(Array(4).fill('---')));
    for (const r of revisions) {
      const name = r.revision === revision ? `**${r.revision}**` : String(r.revision);
      lines.push(row([name, escapeMarkdown(r.by ?? ''), r.at !== undefined ? formatUtc(new Date(r.at)) : '', escapeMarkdown(r.notes ?? '')]));
    }
  }
  if (summary.doc) lines.push('', `## ${l10n.t('Description')}`, '', summary.doc.trim());
  return `${lines.join('\n')}\n`;
}

/** The columns the tables of inputs and of outputs share. */
const columnWords = () => ({
  id: l10n.t({ message: 'ID', comment: ['A column of an app\'s inputs or outputs'] }),
  label: l10n.t({ message: 'Label', comment: ['A column of an app\'s inputs or outputs'] }),
  type: l10n.t({ message: 'Type', comment: ['A column of an app\'s inputs or outputs: File, int, …'] }),
  fileTypes: l10n.t({ message: 'File types', comment: ['A column of an app\'s inputs or outputs: BAM, FASTQ, …'] }),
});

/** A table's row; its cells already escaped. */
const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
