// The read-only documents of apps (`sevenbridges-app:`): a revision as the platform serves it
// (`sevenbridges-app:/owner/project/app/3.cwl`, read when opened), an app's page (`…/app/3/<app>.md`: its inputs,
// outputs and revisions, appPage.ts), and the texts a diff shows (a push's two sides, two revisions compared), held
// here while their tabs may ask for them.
import * as vscode from 'vscode';
import type { AppsApi } from '../api/apps';
import { SCHEMES } from '../keys/schemes';
import { revisionOfDocumentPath } from './appRevisions';
import { renderAppPage } from './appPage';
import { renderCwl, type CwlFormat } from './cwlText';

/** How many texts of diffs are kept (the oldest forgotten first). */
const KEPT_TEXTS = 20;

export class AppDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private made = 0;

  constructor(private readonly apps: Pick<AppsApi, 'raw'>) {}

  /** A revision of an app, read from the platform when opened, in YAML (`.cwl`: a CWL extension the person has reads it). */
  revisionUri(app: string, revision: number): vscode.Uri {
    return vscode.Uri.from({ scheme: SCHEMES.app, path: `/${app}/${revision}.cwl` });
  }

  /** An app's page (appPage.ts), read from the platform when opened; named after the app, so that its tab says which. */
  pageUri(app: string, revision: number): vscode.Uri {
    return vscode.Uri.from({ scheme: SCHEMES.app, path: `/${app}/${revision}/${app.split('/')[2]}.md` });
  }

  /** A text to show read-only, named `name` (its extension gives its language). */
  held(name: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: SCHEMES.app, path: `/shown/${++this.made}/${name}` });
    this.texts.set(uri.toString(), text);
    if (this.texts.size > KEPT_TEXTS) this.texts.delete(this.texts.keys().next().value!);
    return uri;
  }

  /** Both sides of a diff in one format, opened in VS Code's diff editor. */
  async diff(left: { name: string; cwl: Record<string, unknown> | undefined }, right: { name: string; cwl: Record<string, unknown> }, format: CwlFormat, title: string): Promise<void> {
    const leftUri = this.held(left.name, left.cwl ? await renderCwl(left.cwl, format) : '');
    const rightUri = this.held(right.name, await renderCwl(right.cwl, format));
    await vscode.commands.executeCommand('vscode.diff', leftUri, rightUri, title, { preview: false });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const held = this.texts.get(uri.toString());
    if (held !== undefined) return held;
    const page = appOfPage(uri);
    if (page) return renderAppPage(page.app, page.revision, await this.apps.raw(`${page.app}/${page.revision}`));
    const revision = revisionOfDocumentPath(uri.path);
    if (!revision) return vscode.l10n.t('This document is no longer held: open it again from its command.');
    return renderCwl(await this.apps.raw(revision), 'yaml');
  }
}

/** The app and revision an app's page shows (`sevenbridges-app:/owner/project/app/3/app.md`), or undefined for another document. */
export function appOfPage(uri: vscode.Uri): { app: string; revision: number } | undefined {
  const match = uri.scheme === SCHEMES.app ? /^\/([^/]+\/[^/]+\/[^/]+)\/(\d+)\/[^/]+\.md$/.exec(uri.path) : null;
  return match ? { app: match[1], revision: Number(match[2]) } : undefined;
}
