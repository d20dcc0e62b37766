/** `1 file`, `1,234 files`: a count and the word that goes with it (en-US digit groups). */
export function plural(count: number, word: string, words = `${word}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? word : words}`;
}
