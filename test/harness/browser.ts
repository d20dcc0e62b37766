/** Debian's chromium driven by playwright-core (no browser download: `executablePath`). */
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { ensureChromium } from './installHost';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

export interface RunningBrowser {
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

/** Opens `url` in a fresh headless chromium with a 1440×900 window and clipboard access. */
export async function openBrowser(url: string, options: { headless?: boolean; viewport?: { width: number; height: number } } = {}): Promise<RunningBrowser> {
  const executablePath = ensureChromium();
  const browser = await chromium.launch({ executablePath, headless: options.headless ?? true, args: CHROMIUM_FLAGS });
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1440, height: 900 } });
  const origin = new URL(url).origin;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin }).catch(() => undefined);
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  return {
    browser,
    context,
    page,
    close: async () => {
      await browser.close().catch(() => undefined);
    },
  };
}
