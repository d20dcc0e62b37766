/**
 * The contributions in package.json against what the running extension registers: the mistakes unit
 * tests cannot see (a command declared but not registered, a menu pointing at nothing, a when-clause
 * with a typo in a context key, a view without a container).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateProduct, bundleText, manifest } from '../helpers';

/** Commands VS Code itself generates for each contributed view and view container. */
function generatedCommands(): Set<string> {
  const generated = new Set<string>();
  const contributes = manifest().contributes;
  for (const views of Object.values(contributes.views ?? {})) {
    for (const view of views) {
      for (const suffix of ['focus', 'resetViewLocation', 'toggleVisibility', 'removeView', 'open']) generated.add(`${view.id}.${suffix}`);
    }
  }
  return generated;
}

/** Context keys of VS Code's own that when-clauses here may use. */
const BUILT_IN_KEYS = new Set([
  'true', 'false', 'view', 'viewItem', 'focusedView', 'viewContainer', 'activeViewlet', 'sideBarVisible', 'sideBarFocus',
  'resource', 'resourceScheme', 'resourceFilename', 'resourceExtname', 'resourceLangId', 'resourcePath', 'resourceDirname',
  'editorLangId', 'editorTextFocus', 'editorFocus', 'editorHasSelection', 'editorHasMultipleSelections', 'editorReadonly', 'textInputFocus', 'inputFocus',
  'isWeb', 'isLinux', 'isMac', 'isWindows', 'remoteName', 'virtualWorkspace', 'workspaceFolderCount', 'workbenchState',
  'listFocus', 'listMultiSelection', 'treeElementCanExpand', 'treeElementHasChild', 'explorerResourceIsFolder', 'isFileSystemResource', 'activeEditor',
]);

interface WhenClause {
  where: string;
  when: string;
}

function whenClauses(): WhenClause[] {
  const c = manifest().contributes;
  const out: WhenClause[] = [];
  for (const [menu, items] of Object.entries(c.menus ?? {})) {
    items.forEach((item, i) => item.when && out.push({ where: `menus.${menu}[${i}] (${item.command ?? item.submenu})`, when: item.when }));
  }
  (c.viewsWelcome ?? []).forEach((w, i) => w.when && out.push({ where: `viewsWelcome[${i}] (${w.view})`, when: w.when }));
  for (const views of Object.values(c.views ?? {})) views.forEach((v) => v.when && out.push({ where: `views (${v.id})`, when: v.when }));
  (c.keybindings ?? []).forEach((k, i) => k.when && out.push({ where: `keybindings[${i}] (${k.command})`, when: k.when }));
  return out;
}

/**
 * Splits a when-clause into the context keys it reads and the values it compares views against.
 * String and regex literals are dropped; the right side of ==/!= is a value, not a key.
 */
export function parseWhen(when: string): { keys: string[]; viewValues: string[] } {
  const stripped = when
    .replace(/'(?:[^'\\]|\\.)*'/g, ' "" ')
    .replace(/=~\s*\/(?:[^/\\]|\\.)*\/[a-z]*/g, ' =~ "" ');
  const tokens = stripped.match(/[A-Za-z_][\w.:-]*|==|!=|=~|&&|\|\||!|<=|>=|<|>|""|\(|\)|\d+/g) ?? [];
  const keys: string[] = [];
  const viewValues: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (!/^[A-Za-z_]/.test(token) || token === 'in' || token === 'not') continue;
    const previous = tokens[i - 1];
    if (previous === '==' || previous === '!=' || previous === '<' || previous === '>' || previous === '<=' || previous === '>=') {
      if (tokens[i - 2] === 'view' || tokens[i - 2] === 'focusedView') viewValues.push(token);
      continue;
    }
    keys.push(token);
  }
  return { keys, viewValues };
}

describe('contributions', () => {
  before(async () => {
    await activateProduct();
  });

  it('every command in package.json is registered', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = (manifest().contributes.commands ?? []).map((c) => c.command).filter((id) => !registered.has(id));
    assert.deepStrictEqual(missing, [], `declared but not registered: ${missing.join(', ')}`);
  });

  it('every registered sevenbridges.* command is declared in package.json', async () => {
    const declared = new Set((manifest().contributes.commands ?? []).map((c) => c.command));
    const generated = generatedCommands();
    const undeclared = (await vscode.commands.getCommands(true)).filter((id) => id.startsWith('sevenbridges.') && !declared.has(id) && !generated.has(id));
    assert.deepStrictEqual(undeclared, [], `registered but not declared: ${undeclared.join(', ')}`);
  });

  it('every command has a title in the "Seven Bridges" category', () => {
    const wrong = (manifest().contributes.commands ?? []).filter((c) => !c.title || c.category !== 'Seven Bridges').map((c) => c.command);
    assert.deepStrictEqual(wrong, []);
  });

  it('declares the activity-bar container and its four views, which open', async () => {
    const c = manifest().contributes;
    assert.ok((c.viewsContainers?.activitybar ?? []).some((v) => v.id === 'sevenbridges'), 'no activity-bar container "sevenbridges"');
    const views = (c.views?.sevenbridges ?? []).map((v) => v.id);
    assert.deepStrictEqual(views, ['sevenbridges.tasks', 'sevenbridges.files', 'sevenbridges.copyJobs', 'sevenbridges.volumes']);
    await vscode.commands.executeCommand('workbench.view.extension.sevenbridges');
    for (const view of views) await vscode.commands.executeCommand(`${view}.focus`);
  });

  it('menus, welcome views and command links point at declared commands and views', () => {
    const c = manifest().contributes;
    const commands = new Set((c.commands ?? []).map((x) => x.command));
    const views = new Set(Object.values(c.views ?? {}).flat().map((v) => v.id));
    const problems: string[] = [];
    for (const [menu, items] of Object.entries(c.menus ?? {})) {
      for (const item of items) if (item.command && !commands.has(item.command)) problems.push(`menus.${menu}: unknown command ${item.command}`);
    }
    for (const welcome of c.viewsWelcome ?? []) {
      if (!views.has(welcome.view)) problems.push(`viewsWelcome: unknown view ${welcome.view}`);
      for (const m of welcome.contents.matchAll(/\(command:([\w.-]+)/g)) if (!commands.has(m[1])) problems.push(`viewsWelcome(${welcome.view}): link to unknown command ${m[1]}`);
    }
    assert.deepStrictEqual(problems, []);
  });

  it('when-clauses use only known context keys and declared views', () => {
    const c = manifest().contributes;
    const views = new Set(Object.values(c.views ?? {}).flat().map((v) => v.id));
    const settings = new Set(Object.keys(c.configuration?.properties ?? {}));
    const bundle = bundleText();
    const problems: string[] = [];
    for (const { where, when } of whenClauses()) {
      const { keys, viewValues } = parseWhen(when);
      for (const view of viewValues) if (!views.has(view)) problems.push(`${where}: view ${view} is not declared`);
      for (const key of keys) {
        if (BUILT_IN_KEYS.has(key)) continue;
        if (key.startsWith('config.')) {
          if (key.startsWith('config.sevenbridges.') && !settings.has(key.slice('config.'.length))) problems.push(`${where}: setting ${key} is not declared`);
          continue;
        }
        if (key.startsWith('sevenbridges.')) {
          // The product sets its keys with setContext; the key's literal must be in the bundle.
          if (!bundle.includes(`"${key}"`) && !bundle.includes(`'${key}'`) && !bundle.includes(`\`${key}\``)) problems.push(`${where}: context key ${key} is never set by the extension`);
          continue;
        }
        problems.push(`${where}: unknown context key ${key}`);
      }
    }
    assert.deepStrictEqual(problems, []);
  });

  it('the Tasks title keeps "Filter Tasks…" first and shows "Clear Task Filters" beside it only while filtered', () => {
    const title = (manifest().contributes.menus?.['view/title'] ?? []).filter((m) => /view == sevenbridges\.tasks\b/.test(m.when ?? ''));
    const entries = title.filter((m) => m.command === 'sevenbridges.tasks.filter');
    assert.deepStrictEqual(entries.map((m) => m.group), ['navigation@1'], 'one "Filter Tasks…", always first in the title');
    assert.doesNotMatch(entries[0].when ?? '', /tasks\.filtered/, 'shown whether or not a filter is on');
    const clear = title.filter((m) => m.command === 'sevenbridges.tasks.clearFilter');
    assert.deepStrictEqual(clear.map((m) => [m.group, m.when]), [['navigation@2', 'view == sevenbridges.tasks && sevenbridges.tasks.filtered']]);
    assert.strictEqual(title.find((m) => m.command === 'sevenbridges.tasks.refresh')?.group, 'navigation@3');
    const icon = (id: string) => (manifest().contributes.commands ?? []).find((c) => c.command === id)?.icon;
    assert.notStrictEqual(icon('sevenbridges.tasks.clearFilter'), icon('sevenbridges.tasks.filter'));
  });

  it('every context-menu command can be run from the command palette too (keyboard alone)', () => {
    const menus = manifest().contributes.menus ?? {};
    const palette = new Map((menus.commandPalette ?? []).map((m) => [m.command, m.when]));
    // "Copy To…" is "Copy Files and Folders…" given the view's selection: the palette has that one.
    const sameAs: Record<string, string> = { 'sevenbridges.copyTo': 'sevenbridges.copy' };
    const hidden = [...new Set((menus['view/item/context'] ?? []).map((m) => m.command!))]
      .map((id) => sameAs[id] ?? id)
      .filter((id) => palette.get(id) === 'false');
    assert.deepStrictEqual(hidden, []);
  });

  it('the when-clause parser finds keys and view values', () => {
    assert.deepStrictEqual(parseWhen("view == sevenbridges.tasks && viewItem =~ /\\btask\\b/ && !sevenbridges.tasks.filtered"), {
      keys: ['view', 'viewItem', 'sevenbridges.tasks.filtered'],
      viewValues: ['sevenbridges.tasks'],
    });
    assert.deepStrictEqual(parseWhen("!sevenbridges.signedIn && sevenbridges.platform == 'sbg-us'").keys, ['sevenbridges.signedIn', 'sevenbridges.platform']);
  });
});
