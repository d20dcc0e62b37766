// The platform's words about a pushed document (its refusal of invalid CWL, or the `sbg:validationErrors` of the
// revision it made) placed on the lines of the file they are about: a message names what it is about in quotes
// ("Input 'reads' has no 'type'."), and the file says where that is (an `id:` of that name, else a key of that name).
// A message that names nothing the file has stays words. YAML and JSON alike. No `vscode`.

export interface PlacedProblem {
  message: string;
  /** 0-based line, and the columns of the name on it. */
  line: number;
  start: number;
  end: number;
}

const QUOTED = /'([^'\n]{1,200})'|"([^"\n]{1,200})"/g;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The names a message quotes, in order. */
export function quotedNames(message: string): string[] {
  return [...message.matchAll(QUOTED)].map((m) => m[1] ?? m[2]).filter((n) => n.trim() !== '');
}

/** Where `name` is defined in the text: a line `id: name` (or `"id": "name"`, `#name`), else a key `name:`. */
function find(lines: readonly string[], name: string): { line: number; start: number; end: number } | undefined {
  const bare = escape(name.replace(/^#/, ''));
  const byId = new RegExp(`(?:^\\s*(?:-\\s+)?id\\s*:\\s*['"]?|"id"\\s*:\\s*")#?(${bare})(?=['"]?\\s*(?:[,}]|$))`);
  const byKey = new RegExp(`^\\s*(?:-\\s+)?(?:"(${bare})"|'(${bare})'|(${bare}))\\s*:`);
  for (const re of [byId, byKey]) {
    for (let i = 0; i < lines.length; i++) {
      const m = re.exec(lines[i]);
      if (!m) continue;
      const found = m[1] ?? m[2] ?? m[3];
      const start = m.index + m[0].lastIndexOf(found);
      return { line: i, start, end: start + found.length };
    }
  }
  return undefined;
}

/** Each message on the line of the first name it quotes that the text defines; the others as they are. */
export function placeProblems(text: string, messages: readonly string[]): { placed: PlacedProblem[]; unplaced: string[] } {
  const lines = text.split(/\r?\n/);
  const placed: PlacedProblem[] = [];
  const unplaced: string[] = [];
  for (const message of messages) {
    const where = quotedNames(message).map((name) => find(lines, name)).find((w) => w !== undefined);
    if (where) placed.push({ message, ...where });
    else unplaced.push(message);
  }
  return { placed, unplaced };
}
