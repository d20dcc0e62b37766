// A file changed on the platform while it is open, noticed when the window takes the focus again (remote/register.ts
// asks, dist/features.js): each visible editor's file is read again; another version is said changed, so an editor
// without changes reads it again, and one with changes keeps them, its tab marked until it is saved or closed (a save
// then meets VS Code's own question: Compare, Overwrite).
import * as vscode from 'vscode';
import type { RemoteFileSystem } from './fileSystem';
import { REMOTE_SCHEME } from './remotePath';

export class ChangedWhileOpen implements vscode.Disposable {
  private readonly stale = new Set<string>();
  private readonly redraw = new vscode.EventEmitter<vscode.Uri[]>();
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly fileSystem: RemoteFileSystem) {
    this.disposables = [
      this.redraw,
      vscode.window.registerFileDecorationProvider({
        onDidChangeFileDecorations: this.redraw.event,
        provideFileDecoration: (uri) =>
          this.stale.has(uri.toString()) ? { badge: '!', tooltip: vscode.l10n.t('Changed on Seven Bridges since you opened it'), color: new vscode.ThemeColor('list.warningForeground') } : undefined,
      }),
      vscode.workspace.onDidSaveTextDocument((d) => this.settle(d.uri)),
      vscode.workspace.onDidCloseTextDocument((d) => this.settle(d.uri)),
    ];
  }

  /** Reads the visible editors' files again; marks those changed on the platform that hold unsaved changes. */
  async recheck(): Promise<void> {
    for (const { document } of vscode.window.visibleTextEditors) {
      const uri = document.uri;
      if (uri.scheme !== REMOTE_SCHEME || uri.query || !(await this.fileSystem.recheck(uri)) || !document.isDirty) continue;
      this.stale.add(uri.toString());
      this.redraw.fire([uri]);
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private settle(uri: vscode.Uri): void {
    if (this.stale.delete(uri.toString())) this.redraw.fire([uri]);
  }
}

export const changedWhileOpen = (fileSystem: RemoteFileSystem): ChangedWhileOpen => new ChangedWhileOpen(fileSystem);
