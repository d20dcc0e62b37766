// The language of a decompressed `.gz` is its inner file's (`calls.vcf.gz` → what `calls.vcf` would open as). VS Code
// picks a language by the document's name, which ends in `.gz`; it has no call that names the language of another
// name, so the languages the installed extensions contribute are matched here the way VS Code matches them. No `vscode`.

export interface LanguageContribution {
  id: string;
  extensions?: readonly string[];
  filenames?: readonly string[];
}

/** The language whose contribution claims `name`: by its whole name first, else by its longest matching extension. */
export function languageByName(name: string, contributions: readonly LanguageContribution[]): string | undefined {
  const lower = name.toLowerCase();
  const byName = contributions.find((c) => c.filenames?.some((f) => f.toLowerCase() === lower));
  if (byName) return byName.id;
  let best: { id: string; length: number } | undefined;
  for (const c of contributions) {
    for (const ext of c.extensions ?? []) {
      const e = ext.toLowerCase();
      if (e.length > (best?.length ?? 0) && lower.endsWith(e) && lower.length > e.length) best = { id: c.id, length: e.length };
    }
  }
  return best?.id;
}

/** The languages an extension's package.json contributes (anything malformed left out). */
export function contributedLanguages(packageJSON: unknown): LanguageContribution[] {
  const languages = (packageJSON as { contributes?: { languages?: unknown } } | undefined)?.contributes?.languages;
  if (!Array.isArray(languages)) return [];
  const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
  return languages
    .filter((l): l is Record<string, unknown> => typeof l === 'object' && l !== null && typeof (l as { id?: unknown }).id === 'string')
    .map((l) => ({ id: l.id as string, extensions: strings(l.extensions), filenames: strings(l.filenames) }));
}
