// The real host the bench's host parts run in: code-server and Chromium installed (test/harness), the product packaged.
import * as fs from 'fs';
import { ensureChromium, ensureHost, type InstalledHost } from '../../test/harness/installHost';
import { vsixPath } from '../../test/harness/paths';

/** The host, once code-server and Chromium are there and the .vsix is built; throws saying what is missing. */
export function realHost(): InstalledHost {
  const host = ensureHost();
  ensureChromium();
  if (!fs.existsSync(vsixPath)) throw new Error(`${vsixPath} is missing (npm run package)`);
  return host;
}
