// package.json as the extension ships it, with its %placeholders% resolved from package.nls.json when there is one.
import * as fs from 'fs';
import * as path from 'path';

export const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');

export interface Manifest {
  contributes: {
    commands: { command: string; title: string }[];
    views: Record<string, { id: string; when?: string }[]>;
    menus: Record<string, { command?: string; when?: string }[]>;
    viewsWelcome?: { view: string; when?: string }[];
    keybindings?: { command: string; when?: string }[];
    resourceLabelFormatters?: { scheme: string; formatting: { label: string } }[];
  };
}

export function manifest(): Manifest {
  const text = fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8');
  const nlsFile = path.join(repoRoot, 'package.nls.json');
  const nls = fs.existsSync(nlsFile) ? (JSON.parse(fs.readFileSync(nlsFile, 'utf8')) as Record<string, string | { message: string }>) : {};
  return JSON.parse(text, (_key, value: unknown) => {
    const placeholder = typeof value === 'string' ? /^%(.+)%$/.exec(value) : null;
    const resolved = placeholder ? nls[placeholder[1]] : undefined;
    return resolved === undefined ? value : typeof resolved === 'string' ? resolved : resolved.message;
  }) as Manifest;
}

/** Every .ts file under `dir`, relative to the repository root. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of fs.readdirSync(path.join(repoRoot, d), { withFileTypes: true })) {
      const rel = path.posix.join(d, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.ts')) out.push(rel);
    }
  };
  walk(dir);
  return out.sort();
}

export function readSource(rel: string): string {
  return fs.readFileSync(path.join(repoRoot, rel), 'utf8');
}
