// What `npm run l10n` exports from src/ (@vscode/l10n-dev's getL10nJson), in about a second instead of ten: the
// exporter compiles the same few tree-sitter queries again for every file, and compiling is nearly all its time. Each
// query is compiled once here and reused; the files are read by the exporter's own code, so the bundle is the same.
// web-tree-sitter is loaded first: once initialised, its module export is replaced by the emscripten runtime.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const TreeSitter = require('web-tree-sitter') as { init(): Promise<void>; Language?: { prototype: { query(source: string): unknown } } };
import { getL10nJson } from '@vscode/l10n-dev';

let ready: Promise<void> | undefined;

/** Compiles each query once per grammar (a compiled query reads any tree of its grammar). */
function reuseQueries(): Promise<void> {
  return (ready ??= TreeSitter.init().then(() => {
    const language = TreeSitter.Language;
    if (!language) throw new Error('web-tree-sitter did not initialise');
    const compile = language.prototype.query;
    const compiled = new WeakMap<object, Map<string, unknown>>();
    language.prototype.query = function (this: object, source: string): unknown {
      let byText = compiled.get(this);
      if (!byText) compiled.set(this, (byText = new Map()));
      if (!byText.has(source)) byText.set(source, compile.call(this, source));
      return byText.get(source);
    };
  }));
}

export async function exportL10n(files: { extension: string; contents: string }[]): Promise<Record<string, unknown>> {
  await reuseQueries();
  return getL10nJson(files);
}
