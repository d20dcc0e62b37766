// An app's CWL as text: written as JSON or YAML (Pull App…, the diffs), read from either. The yaml package is loaded
// on first use (util/yaml.ts), never by dist/main.js. No `vscode`.
import type { RawApp } from '../api/apps';
import { loadYaml } from '../util/yaml';

export type CwlFormat = 'json' | 'yaml';

/** The format a file's name or text says: `.json`, or text starting with `{`, is JSON; anything else YAML. */
export function formatOf(fileName: string, text: string): CwlFormat {
  return /\.json$/i.test(fileName) || /^\s*\{/.test(text) ? 'json' : 'yaml';
}

/** A document as the text of a file: JSON indented by 2, or YAML (block style, long lines kept whole). */
export async function renderCwl(cwl: RawApp, format: CwlFormat): Promise<string> {
  if (format === 'json') return `${JSON.stringify(cwl, null, 2)}\n`;
  const yaml = await loadYaml();
  return yaml.stringify(cwl, { lineWidth: 0, aliasDuplicateObjects: false });
}
