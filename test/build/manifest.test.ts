// The manifest as the Marketplace and VS Code read it: every user-visible string goes through package.nls.json,
// the walkthrough's buttons, completion events and images point at things that exist, the settings link to their
// commands, and the package holds only what a user needs.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { TIMELINE_MEDIA } from '../../src/tasks/timelineModel';

const root = path.resolve(__dirname, '..', '..', '..');
const read = (file: string): string => fs.readFileSync(path.join(root, file), 'utf8');

interface Walkthrough {
  id: string;
  title: string;
  description: string;
  steps: { id: string; title: string; description: string; media: { image?: string; altText?: string }; completionEvents?: string[] }[];
}

interface Manifest {
  displayName: string;
  description: string;
  icon?: string;
  /** The folder of the code's message bundles (`l10n.t`). */
  l10n?: string;
  galleryBanner?: { color?: string; theme?: string };
  repository?: { type: string; url: string } | string;
  bugs?: { url: string };
  homepage?: string;
  categories: string[];
  keywords: string[];
  scripts: Record<string, string>;
  contributes: {
    commands: { command: string; title: string }[];
    views: Record<string, { id: string }[]>;
    viewsContainers: Record<string, { id: string; icon: string }[]>;
    configuration: { properties: Record<string, { description?: string; markdownDescription?: string }> };
    walkthroughs?: Walkthrough[];
  };
}

const manifest = JSON.parse(read('package.json')) as Manifest;
const nls = JSON.parse(read('package.nls.json')) as Record<string, string>;
const contributes = manifest.contributes;

/** Manifest fields a person reads (under `contributes`, besides displayName and description at the top). */
const USER_VISIBLE = new Set([
  'title', 'shortTitle', 'name', 'category', 'description', 'markdownDescription', 'enumDescriptions', 'markdownEnumDescriptions',
  'deprecationMessage', 'markdownDeprecationMessage', 'contents', 'altText', 'label', 'contextualTitle',
]);

/** Every string of a JSON value with its path. */
function strings(value: unknown, at: string): { at: string; value: string; field: string }[] {
  if (typeof value === 'string') return [{ at, value, field: at.replace(/\[\d+\]$/, '').split('.').pop() ?? '' }];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${at}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, `${at}.${k}`));
  return [];
}

const placeholder = /^%([^%]+)%$/;
const localise = (value: string): string => {
  const key = placeholder.exec(value)?.[1];
  return key === undefined ? value : nls[key] ?? value;
};

const contributedCommands = new Set(contributes.commands.map((c) => c.command));
const contributedViews = new Set(Object.values(contributes.views).flat().map((v) => v.id));
/** Commands VS Code makes for each view; a walkthrough button may open a view with `<view id>.focus`. */
const viewFocusCommands = new Set([...contributedViews].map((id) => `${id}.focus`));
const commandLinks = (markdown: string): string[] => [...markdown.matchAll(/\]\(command:([\w.-]+)[^)]*\)/g)].map((m) => m[1]);
const sourceText = (dir: string): string =>
  fs.readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => fs.readFileSync(path.join(e.parentPath, e.name), 'utf8'))
    .join('\n');

/** Width and height of a PNG, from its IHDR chunk; undefined when the file is not a PNG. */
function pngSize(file: string): { width: number; height: number } | undefined {
  const bytes = fs.readFileSync(path.join(root, file));
  if (bytes.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a' || bytes.subarray(12, 16).toString('ascii') !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('manifest: localisable strings (package.nls.json)', () => {
  it('every %key% of package.json exists in package.nls.json', () => {
    const missing = strings(manifest, '').flatMap((s) => {
      const key = placeholder.exec(s.value)?.[1];
      return key !== undefined && !(key in nls) ? [`${s.at}: %${key}%`] : [];
    });
    assert.deepStrictEqual(missing, []);
  });

  it('every key of package.nls.json is used in package.json', () => {
    const used = new Set(strings(manifest, '').map((s) => placeholder.exec(s.value)?.[1]).filter((k) => k !== undefined));
    assert.deepStrictEqual(Object.keys(nls).filter((k) => !used.has(k)), []);
  });

  it('every user-visible string of the manifest is a %key%, and every message says something', () => {
    const visible = [
      ...strings({ displayName: manifest.displayName, description: manifest.description }, ''),
      ...strings(contributes, '.contributes'),
      // A resource label formatter's `label` is a template of the URI's parts (`${query.path}`), not words.
    ].filter((s) => USER_VISIBLE.has(s.field) && !s.at.startsWith('.contributes.resourceLabelFormatters'));
    const literal = visible.filter((s) => !placeholder.test(s.value)).map((s) => `${s.at}: ${JSON.stringify(s.value)}`);
    assert.deepStrictEqual(literal, []);
    assert.ok(visible.length > 100, `only ${visible.length} user-visible strings found: the walk missed some`);
    const empty = Object.entries(nls).filter(([, v]) => typeof v !== 'string' || !v.trim() || /%[\w.-]+%/.test(v)).map(([k]) => k);
    assert.deepStrictEqual(empty, []);
  });

  it('the manifest finds the strings it should in the English bundle (a command title, a view name)', () => {
    const setToken = contributes.commands.find((c) => c.command === 'sevenbridges.setToken');
    assert.strictEqual(localise(setToken?.title ?? ''), 'Set Authentication Token');
    assert.strictEqual(localise(manifest.displayName), 'Seven Bridges');
  });
});

describe('manifest: the walkthrough', () => {
  const walkthrough = contributes.walkthroughs?.[0];
  const setContextKeys = sourceText('src');

  it('has four steps: choose the platform, set the token, browse the tasks, copy files', () => {
    assert.ok(walkthrough, 'no contributes.walkthroughs');
    assert.deepStrictEqual(walkthrough.steps.map((s) => s.id), ['choosePlatform', 'setToken', 'browseTasks', 'copyFiles']);
    assert.deepStrictEqual(walkthrough.steps.map((s) => localise(s.title)), ['Choose your platform', 'Set your token', 'Browse your tasks', 'Copy files between projects']);
  });

  it("each step has a button (a command link on a line of its own) that runs one of this extension's commands or opens its view", () => {
    for (const step of walkthrough!.steps) {
      const lines = localise(step.description).split('\n');
      const buttons = lines.filter((l) => /^\[[^\]]+\]\(command:[\w.-]+\)$/.test(l.trim())).flatMap(commandLinks);
      assert.ok(buttons.length >= 1, `step ${step.id}: no button`);
      for (const id of commandLinks(localise(step.description))) {
        assert.ok(contributedCommands.has(id) || viewFocusCommands.has(id), `step ${step.id}: links to ${id}, which is neither a contributed command nor a view`);
      }
    }
  });

  it('each step is completed by the event its button causes', () => {
    const expected: Record<string, string[]> = {
      choosePlatform: ['onCommand:sevenbridges.selectPlatform'],
      setToken: ['onContext:sevenbridges.signedIn'],
      browseTasks: ['onView:sevenbridges.tasks'],
      copyFiles: ['onCommand:sevenbridges.copy'],
    };
    for (const step of walkthrough!.steps) {
      assert.deepStrictEqual(step.completionEvents, expected[step.id], step.id);
      for (const event of step.completionEvents ?? []) {
        const [kind, target] = [event.slice(0, event.indexOf(':')), event.slice(event.indexOf(':') + 1)];
        if (kind === 'onCommand') assert.ok(contributedCommands.has(target), `${step.id}: ${target} is not contributed`);
        else if (kind === 'onView') assert.ok(contributedViews.has(target), `${step.id}: ${target} is not a view`);
        else if (kind === 'onContext') assert.ok(setContextKeys.includes(`'${target}'`), `${step.id}: the extension never sets ${target}`);
        else assert.fail(`${step.id}: unexpected completion event ${event}`);
      }
    }
  });

  it('each step shows a small PNG with a text alternative', () => {
    for (const step of walkthrough!.steps) {
      const image = step.media.image ?? '';
      assert.match(image, /^media\/walkthrough\/[\w-]+\.png$/, step.id);
      assert.ok(fs.existsSync(path.join(root, image)), `${step.id}: ${image} is missing (npm run media:walkthrough makes it)`);
      const size = pngSize(image);
      assert.ok(size && size.width >= 400 && size.width <= 1100, `${step.id}: ${image} is ${JSON.stringify(size)}`);
      const bytes = fs.statSync(path.join(root, image)).size;
      assert.ok(bytes <= 120_000, `${step.id}: ${image} weighs ${bytes} bytes`);
      assert.ok(localise(step.media.altText ?? '').length > 20, `${step.id}: no alt text`);
    }
  });
});

describe('manifest: settings', () => {
  it('every setting has a markdownDescription that links to the commands it relates to', () => {
    const problems: string[] = [];
    for (const [id, setting] of Object.entries(contributes.configuration.properties)) {
      if (setting.description || !setting.markdownDescription) {
        problems.push(`${id}: description instead of markdownDescription`);
        continue;
      }
      const links = commandLinks(localise(setting.markdownDescription));
      if (!links.length) problems.push(`${id}: links to no command`);
      for (const link of links) if (!contributedCommands.has(link)) problems.push(`${id}: links to ${link}, not contributed`);
    }
    assert.deepStrictEqual(problems, []);
  });
});

describe('manifest: Marketplace listing', () => {
  it('has a 128×128 PNG icon', () => {
    assert.strictEqual(manifest.icon, 'media/icon.png');
    assert.deepStrictEqual(pngSize(manifest.icon), { width: 128, height: 128 });
  });

  it('names its repository, issue tracker and homepage, and has a gallery banner', () => {
    const repository = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
    assert.match(repository ?? '', /^https:\/\/github\.com\/[\w-]+\/[\w.-]+?(\.git)?$/);
    const base = (repository ?? '').replace(/\.git$/, '');
    assert.strictEqual(manifest.bugs?.url, `${base}/issues`);
    assert.ok(manifest.homepage?.startsWith(base), manifest.homepage);
    assert.match(manifest.galleryBanner?.color ?? '', /^#[0-9a-f]{6}$/i);
    assert.ok(['dark', 'light'].includes(manifest.galleryBanner?.theme ?? ''), 'galleryBanner.theme');
  });

  it('says what it supports in Restricted Mode (it runs no code of the workspace: all of it) and in a virtual workspace (a mounted project is one)', () => {
    const { capabilities } = manifest as unknown as { capabilities?: unknown };
    assert.deepStrictEqual(capabilities, { untrustedWorkspaces: { supported: true }, virtualWorkspaces: true });
  });

  it('uses Marketplace categories that fit and a few keywords', () => {
    assert.deepStrictEqual(manifest.categories, ['Data Science', 'Other']);
    assert.ok(manifest.keywords.length >= 3 && manifest.keywords.length <= 30, `${manifest.keywords.length} keywords (vsce allows 30)`);
  });

  it('packages without --allow-missing-repository', () => {
    assert.match(manifest.scripts.package, /\bvsce package\b/);
    assert.doesNotMatch(manifest.scripts.package, /allow-missing-repository/);
  });

  it('packages only what a user needs: the bundle, the manifest and its strings (and the code\'s), the README and the pictures it and the manifest show, the timeline panel\'s script and style', async function () {
    this.timeout(30_000);
    // vsce is CommonJS; its listFiles applies .vscodeignore as `vsce ls` does.
    const vsce = (await import('@vscode/vsce')) as unknown as { listFiles(o: { cwd: string; packageManager: string }): Promise<string[]> };
    const listed = (await vsce.listFiles({ cwd: root, packageManager: 'none' })).map((f) => f.replace(/\\/g, '/')).sort();
    const readmeImages = [...read('README.md').matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((src) => !/^[a-z]+:/i.test(src));
    const manifestImages = [
      manifest.icon!,
      ...Object.values(contributes.viewsContainers).flat().map((c) => c.icon),
      ...(contributes.walkthroughs ?? []).flatMap((w) => w.steps.map((s) => s.media.image!)),
    ];
    // The English bundle of the code's messages, in the folder the manifest's `l10n` names.
    const codeBundle = manifest.l10n ? [path.posix.join(manifest.l10n, 'bundle.l10n.json')] : [];
    // What the timeline panel's page loads (a webview reads only from media/).
    const webviewMedia = Object.values(TIMELINE_MEDIA).map((file) => `media/${file}`);
    const needed = new Set(['package.json', 'package.nls.json', 'README.md', 'CHANGELOG.md', 'LICENSE', ...readmeImages, ...manifestImages, ...codeBundle, ...webviewMedia]);
    const extra = listed.filter((f) => !needed.has(f) && !/^dist\/(extension|main|features|authoring|fetch|yaml)\.js$/.test(f));
    assert.deepStrictEqual(extra, [], 'packaged but not needed');
    const missing = [...needed].filter((f) => !listed.includes(f));
    assert.deepStrictEqual(missing, [], 'needed but not packaged');
  });
});
