// The harness's command-line options (`--grep tasks`, `--port=8080`), read with Node's own parser.
import { parseArgs } from 'util';

/** The string options `names` from this process's command line; anything else is left alone. */
export function options<N extends string>(...names: N[]): Partial<Record<N, string>> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: Object.fromEntries(names.map((n) => [n, { type: 'string' as const }])),
    strict: false,
    allowPositionals: true,
  });
  return Object.fromEntries(names.filter((n) => typeof values[n] === 'string').map((n) => [n, values[n]])) as Partial<Record<N, string>>;
}
