/**
 * `npm run demo`: the extension (built and packaged by the npm script) in a real VS Code (code-server)
 * on the platform emulator with its seeded data, signed in with the emulator's token, the Seven Bridges
 * view open. Prints the URL to open; Ctrl-C stops everything.
 *
 *   npm run demo [-- --port 8080] [--emulator-port 8081] [--host 0.0.0.0]
 */
import * as fs from 'fs';
import * as net from 'net';
import { startCodeServer } from './codeServer';
import { onExit } from './cleanup';
import { pointAt, startHarnessEmulator } from './emulator';
import { ensureHost } from './installHost';
import { vsixPath } from './paths';
import { freePort } from './ports';
import { installOpenViewExtension } from './runnerExtension';
import { options } from '../support/args';

function portIsFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

async function main(): Promise<void> {
  const host = ensureHost();
  if (!fs.existsSync(vsixPath)) throw new Error(`${vsixPath} is missing: \`npm run package\` builds it (npm run demo does)`);
  const args = options('host', 'port', 'emulator-port');
  const bindHost = args.host ?? '127.0.0.1';
  const wanted = Number(args.port ?? process.env.PORT ?? 8080);
  const port = (await portIsFree(wanted, bindHost)) ? wanted : await freePort();
  const emuPort = args['emulator-port'] ? Number(args['emulator-port']) : undefined;

  const emulator = await startHarnessEmulator({ port: emuPort });
  const target = pointAt(emulator, true);
  const server = await startCodeServer({
    name: 'demo',
    host,
    port,
    bindHost,
    vsix: vsixPath,
    settings: target.settings,
    env: target.env,
    beforeStart: (dirs) => installOpenViewExtension(dirs.extensionsDir),
    onUnexpectedExit: (why) => {
      console.error(`demo: code-server ${why}; its log:\n${server.tail(40)}`);
      process.exit(1);
    },
  });
  onExit(() => console.log('\nStopping the demo: code-server and the emulator.'));
  const shown = bindHost === '0.0.0.0' ? server.url.replace('127.0.0.1', 'localhost') : server.url;
  console.log('');
  console.log(`Seven Bridges demo: VS Code ${host.vscodeVersion} (code-server ${host.spec.codeServer}) with the extension installed from ${vsixPath.split('/').pop()}`);
  console.log(`  Open:     ${shown}`);
  console.log(`  Emulator: ${emulator.baseUrl} (user ${emulator.username}, token ${emulator.token})`);
  console.log(`  Signed in through SB_API_ENDPOINT/SB_AUTH_TOKEN; the Seven Bridges view opens by itself.`);
  console.log(`  Log:      ${server.logFile}`);
  console.log('Press Ctrl-C to stop.');
  await new Promise<void>(() => undefined);
}

main().catch((err: unknown) => {
  console.error(`demo: FAILED: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
