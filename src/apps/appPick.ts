// The one way to pick an app (Browse Apps…, New Task…, Run App on These Files…): the apps of your projects and the
// public apps in one searchable list. Typed words search the platform too (`q`, every word must match the name, ID,
// description, toolkit or categories), so an app beyond the first page is found; the app under the cursor says its
// label and toolkit (its CWL read once, when it is the active item for a moment).
import * as vscode from 'vscode';
import type { App, AppsApi } from '../api/apps';
import type { Clock } from '../api/clock';
import { describeError } from '../api/errors';
import { revisionWords } from '../util/words';
import { appSummary } from './cwlInputs';

interface AppItem extends vscode.QuickPickItem {
  choice?: App;
}

const LISTED = 100;
/** How long typing pauses before the platform is searched, and the cursor rests before an app's CWL is read. */
const PAUSE_MS = 300;

export async function pickApp(apps: Pick<AppsApi, 'list' | 'raw'>, clock: Clock, options: { title: string; placeholder?: string }): Promise<App | undefined> {
  const pick = vscode.window.createQuickPick<AppItem>();
  pick.title = options.title;
  pick.placeholder = options.placeholder ?? vscode.l10n.t('Type to search your apps and the public apps');
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.ignoreFocusOut = true;
  const details = new Map<string, string>();
  let items: AppItem[] = [];
  let searched = 0;
  let timer: unknown;
  let hover: unknown;
  const item = (app: App, found: boolean): AppItem => ({
    label: app.name,
    description: `${revisionWords(app.revision)} · ${app.project}`,
    detail: details.get(app.id),
    choice: app,
    // The platform matched it by words the list does not show (a description, a toolkit): shown whatever is typed.
    alwaysShow: found,
  });
  const load = async (words: string[]) => {
    const asked = ++searched;
    pick.busy = true;
    try {
      const q = words.length ? words : undefined;
      const [own, pub] = await Promise.all([apps.list({ q }, { limit: LISTED }), apps.list({ visibility: 'public', q }, { limit: LISTED })]);
      if (asked !== searched) return;
      const found = words.length > 0;
      items = [
        { label: vscode.l10n.t('Your apps'), kind: vscode.QuickPickItemKind.Separator },
        ...own.items.map((a) => item(a, found)),
        { label: vscode.l10n.t('Public apps'), kind: vscode.QuickPickItemKind.Separator },
        ...pub.items.map((a) => item(a, found)),
      ];
      if (!own.items.length && !pub.items.length) items = [{ label: vscode.l10n.t('No app matches "{0}"', words.join(' ')), alwaysShow: true }];
    } catch (error) {
      if (asked !== searched) return;
      items = [{ label: vscode.l10n.t('Could not list the apps'), iconPath: new vscode.ThemeIcon('warning'), detail: describeError(error), alwaysShow: true }];
    }
    pick.items = items;
    pick.busy = false;
  };
  const describe = async (active: AppItem) => {
    const app = active.choice;
    if (!app || details.has(app.id)) return;
    const summary = appSummary(await apps.raw(app.id));
    details.set(app.id, [summary.label, summary.toolkit].filter(Boolean).join(' · '));
    const current = pick.activeItems[0];
    pick.items = items = items.map((i) => (i.choice?.id === app.id ? { ...i, detail: details.get(app.id) } : i));
    const again = current && items.find((i) => i.choice?.id === current.choice?.id);
    if (again) pick.activeItems = [again];
  };
  pick.onDidChangeValue((value) => {
    clock.clearTimeout(timer);
    timer = clock.setTimeout(() => void load(value.split(/\s+/).filter(Boolean)), PAUSE_MS);
  });
  pick.onDidChangeActive((active) => {
    clock.clearTimeout(hover);
    if (active[0]?.choice) hover = clock.setTimeout(() => void describe(active[0]).catch(() => undefined), PAUSE_MS);
  });
  pick.show();
  void load([]);
  try {
    // Enter before the list has come, or on a row that is no app (a message), does nothing: only Escape closes it.
    return await new Promise<App | undefined>((resolve) => {
      pick.onDidAccept(() => {
        const chosen = (pick.selectedItems[0] ?? pick.activeItems[0])?.choice;
        if (chosen) resolve(chosen);
      });
      pick.onDidHide(() => resolve(undefined));
    });
  } finally {
    clock.clearTimeout(timer);
    clock.clearTimeout(hover);
    pick.dispose();
  }
}
