// Markdown escaping for tooltips (tasks, files). No `vscode` import.

/**
 * Escapes text from users or the platform (names, messages) for a Markdown tooltip, so it shows as typed:
 * emphasis, code, links, HTML, entities, strikethrough and theme icons (`$(name)`) are all escaped. Line
 * breaks become spaces, so the text can never start a line (where `-`, `.`, `=` would make a list or heading).
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/\r\n?|\n/g, ' ').replace(/[\\`*_{}[\]()#+!|<>~$&]/g, (c) => `\\${c}`);
}
