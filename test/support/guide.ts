// A guide's TypeScript examples (ARCHITECTURE.md), read out of its Markdown and type-checked against the code, so
// that what the guide shows is what the code is. test/build/guide.test.ts runs it.
//
// Every fenced `ts` block compiles as a module of its own. A block that is a fragment (an entry of a table, a call
// inside a function, a method) says how it is completed, in an HTML comment right above it, which Markdown does not
// show:
//
//   <!-- guide: src/tasks/commands.ts
//   import { onOne, type Command } from '../ui/commands';
//   declare const task: …;
//   export const entries: Command[] = [
//   {{block}}
//   ];
//   -->
//
// The path after `guide:` is where the block is compiled (so its relative imports resolve as in that file); the lines
// after it are put around the block, which takes the place of `{{block}}` (or follows them, without one). A block
// without a comment compiles alone, as `src/guide.ts`.
import * as path from 'path';
import * as ts from 'typescript';

export interface GuideBlock {
  /** The line of the Markdown file where the block's code starts (1-based). */
  line: number;
  code: string;
  /** Where it is compiled, relative to the repository (`src/tasks/commands.ts`); its folder resolves the imports. */
  beside: string;
  /** What is put before and after it (the comment's lines), and the line of the comment, if it has one. */
  before: string;
  after: string;
  commentLine?: number;
}

const FENCE = /^(\s*)```ts\s*$/;
const BLOCK_MARK = '{{block}}';

/** The `ts` blocks of a Markdown text, each with how it is completed. */
export function guideBlocks(markdown: string): GuideBlock[] {
  const lines = markdown.split('\n');
  const blocks: GuideBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const indent = open[1];
    const end = lines.findIndex((l, j) => j > i && l.trim() === '```');
    if (end < 0) throw new Error(`line ${i + 1}: a \`ts\` block that is never closed`);
    const code = lines
      .slice(i + 1, end)
      .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()))
      .join('\n');
    blocks.push({ line: i + 2, code, ...completion(lines, i) });
    i = end;
  }
  return blocks;
}

/** The comment above the fence at `fence`, if any: where the block compiles, and what goes around it. */
function completion(lines: readonly string[], fence: number): Pick<GuideBlock, 'beside' | 'before' | 'after' | 'commentLine'> {
  let last = fence - 1;
  while (last >= 0 && !lines[last].trim()) last--;
  if (last < 0 || !lines[last].trim().endsWith('-->')) return { beside: 'src/guide.ts', before: '', after: '' };
  let first = last;
  while (first >= 0 && !lines[first].trim().startsWith('<!--')) first--;
  const opening = /^<!--\s*guide:\s*(\S+)\s*$/.exec(lines[first]?.trim() ?? '');
  if (!opening) return { beside: 'src/guide.ts', before: '', after: '' };
  const indent = /^\s*/.exec(lines[first])![0];
  const body = lines
    .slice(first + 1, last + 1)
    .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()))
    .join('\n')
    .replace(/\s*-->\s*$/, '');
  const [before, after = ''] = body.includes(BLOCK_MARK) ? body.split(BLOCK_MARK) : [body, ''];
  return { beside: opening[1], before, after, commentLine: first + 1 };
}

export interface GuideProblem {
  /** The Markdown line the problem is on (in the block, or its comment). */
  line: number;
  message: string;
}

/**
 * Type-checks the blocks against the repository at `root` (its tsconfig.json; unused names allowed, an example may
 * declare what it does not use): the problems, each at its line in the Markdown.
 */
export function compileGuide(root: string, blocks: readonly GuideBlock[]): GuideProblem[] {
  const config = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, incremental: false, tsBuildInfoFile: undefined, noUnusedLocals: false, noUnusedParameters: false };
  const files = new Map<string, { text: string; block: GuideBlock; firstLine: number }>();
  blocks.forEach((block, index) => {
    const beside = path.join(root, block.beside);
    const file = path.join(path.dirname(beside), `__guide_${index}_${block.line}.ts`);
    const text = `${block.before}\n${block.code}\n${block.after}\n`;
    files.set(path.normalize(file), { text, block, firstLine: block.before.split('\n').length });
  });
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError, fresh) => {
    const own = files.get(path.normalize(name));
    return own ? ts.createSourceFile(name, own.text, language, true) : getSourceFile(name, language, onError, fresh);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => files.has(path.normalize(name)) || fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => files.get(path.normalize(name))?.text ?? readFile(name);
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host });
  const problems: GuideProblem[] = [];
  for (const [file, { block, firstLine }] of files) {
    const source = program.getSourceFile(file)!;
    for (const d of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const at = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line;
      const inBlock = at >= firstLine && at < firstLine + block.code.split('\n').length;
      const line = inBlock ? block.line + at - firstLine : (block.commentLine ?? block.line);
      problems.push({ line, message: `${inBlock ? '' : 'in its comment: '}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}` });
    }
  }
  return problems.sort((a, b) => a.line - b.line);
}
