import * as assert from 'assert';
import { summaryMarkdown, type CollectResult, type FailureRow } from '../../../src/tasks/failureLogs';

/** markdown-it, as VS Code's Markdown preview renders failure-summary.md (HTML on, as the preview has it). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as new (options: { html: boolean }) => { render(text: string): string };
const render = (text: string): string => new MarkdownIt({ html: true }).render(text);

/** The cells of each body row of the rendered table, their text as a reader sees it (tags out, entities read). */
function bodyCells(html: string): string[][] {
  const body = /<tbody>([\s\S]*)<\/tbody>/.exec(html)?.[1] ?? '';
  const text = (cell: string) => cell.replace(/<br>/g, '\n').replace(/<[^>]+>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => [...row[1].matchAll(/<td>([\s\S]*?)<\/td>/g)].map((cell) => text(cell[1])));
}

describe('tasks/failureLogs: failure-summary.md, as others will open it', () => {
  const names = ['run 1\r# Heading', 'two\nlines | and a pipe', '# leading hash', '`tick` and ``two``', '<img src=x onerror=alert(1)>', '<script>alert(1)</script>', '\x1b[31mred\x1b[0m', '[click](javascript:alert(1))', 'a\u2028b', 'salmon (quant)'];
  const row = (name: string, i: number): FailureRow => ({
    task: { id: `t${i}`, name },
    job: name,
    instance: 'c5.2xlarge',
    message: name,
    files: { 'job.err.log': `${name.replace(/[^\w ()]/g, '_')}/job/job.err.log` },
    lastLines: [name, 'a line with | and ` and </code><b>bold</b>'],
  });
  const result: CollectResult = { rows: names.map(row), notReached: 0, logs: names.length };

  it('each name stays in its cell: no row split, no heading, no HTML, no link made; the reader sees it as typed, on one line', () => {
    const html = render(summaryMarkdown(result, `Failure logs of "${names[0]}"`));
    const rows = bodyCells(html);
    assert.strictEqual(rows.length, names.length, 'one row per failed job');
    assert.ok(rows.every((cells) => cells.length === 5), 'five cells a row');
    const oneLine = (name: string) =>
      name
        .replace(/\x1b\[[0-9;]*m/g, '') // eslint-disable-line no-control-regex
        .replace(/[\r\n\u2028]/g, ' ');
    assert.deepStrictEqual(rows.map((cells) => cells[0]), names.map(oneLine));
    assert.deepStrictEqual(rows.map((cells) => cells[1]), names.map(oneLine));
    assert.deepStrictEqual(rows.map((cells) => cells[3]), names.map(oneLine));
    assert.deepStrictEqual(rows.map((cells) => cells[4].split('\n').slice(0, 2)), names.map((n) => [oneLine(n), 'a line with | and ` and </code><b>bold</b>']));
    assert.deepStrictEqual(html.match(/<h\d/g), ['<h1'], 'one heading, the summary\'s');
    assert.ok(!/<img|<script|<b>|href="javascript/i.test(html), 'no HTML or link from a name');
    assert.strictEqual((html.match(/<a href=/g) ?? []).length, names.length, 'one link a row: its job.err.log');
  });
});
