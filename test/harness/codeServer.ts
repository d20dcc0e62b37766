/**
 * Starts a real VS Code (code-server) with fresh user-data and extensions folders on a free port, with
 * the product's .vsix (or an unpacked folder) and any helper extensions installed into it.
 */
import { type ChildProcess, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { ensureHost, type InstalledHost } from './installHost';
import { logsDir } from './paths';
import { freePort } from './ports';
import { onExit } from './cleanup';
import { recordRunToken } from './runTokens';

export interface CodeServerOptions {
  /** Name used for the log file and the temp folder (e.g. `integration`, `e2e`, `demo`). */
  readonly name: string;
  /** The product as packaged: installed with `--install-extension`, as a user does. */
  readonly vsix?: string;
  /** Unpacked extension folders copied into the extensions folder (e.g. the test-runner extension). */
  readonly extensionFolders?: readonly string[];
  /** User settings written before start. */
  readonly settings?: Record<string, unknown>;
  /** Extra environment for the server and so for the extension host. */
  readonly env?: NodeJS.ProcessEnv;
  /** Folder opened in the workbench; a fresh empty one when omitted. */
  readonly workspace?: string;
  /** Fixed port (the demo); a free one when omitted. */
  readonly port?: number;
  /** Address to bind; 127.0.0.1 when omitted. */
  readonly bindHost?: string;
  /** Host to use; the current engine when omitted. */
  readonly host?: InstalledHost;
  /** Called with the fresh folders after the .vsix is installed, before the server starts. */
  readonly beforeStart?: (dirs: { runDir: string; userDataDir: string; extensionsDir: string; workspace: string }) => void;
  /** Keep the run folder after close (the demo prints where it is). */
  readonly keepRunDir?: boolean;
  /** Called when the server dies after it had answered (not on close()). */
  readonly onUnexpectedExit?: (why: string) => void;
  /** Milliseconds to wait for the server to answer. */
  readonly startTimeoutMs?: number;
}

export interface RunningCodeServer {
  /** Workbench URL with the workspace folder opened. */
  readonly url: string;
  readonly port: number;
  readonly workspace: string;
  readonly runDir: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  readonly logFile: string;
  readonly host: InstalledHost;
  /** Last lines of the server's log, for error messages. */
  tail(lines?: number): string;
  close(): Promise<void>;
}

/** The user settings every run starts with: no welcome page, tips, update checks or trust prompts. */
export const BASE_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'window.restoreWindows': 'none',
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

function codeServerArgs(host: InstalledHost, extra: string[]): string[] {
  return [path.join(host.codeServer, 'out', 'node', 'entry.js'), ...extra];
}

/** Installs a .vsix into an extensions folder the way a user would (`--install-extension`). */
export function installVsix(host: InstalledHost, vsix: string, extensionsDir: string, userDataDir: string, configFile: string): void {
  if (!fs.existsSync(vsix)) throw new Error(`${vsix} does not exist: run \`npm run package\` first`);
  const result = spawnSync(
    host.node,
    codeServerArgs(host, ['--config', configFile, '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir, '--install-extension', vsix, '--force']),
    { encoding: 'utf8', timeout: 120_000 },
  );
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0 || !/successfully installed/i.test(output)) {
    throw new Error(`installing ${path.basename(vsix)} into code-server failed (exit ${result.status ?? result.signal}):\n${output}`);
  }
}

function copyDir(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, dereference: true });
}

function get(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.setTimeout(2000, () => {
      req.destroy();
      resolve(0);
    });
  });
}

export async function startCodeServer(options: CodeServerOptions): Promise<RunningCodeServer> {
  const host = options.host ?? ensureHost();
  recordRunToken(options.env?.SB_AUTH_TOKEN);
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), `sb-${options.name}-`));
  const userDataDir = path.join(runDir, 'user-data');
  const extensionsDir = path.join(runDir, 'extensions');
  const workspace = options.workspace ?? path.join(runDir, 'workspace');
  for (const dir of [userDataDir, extensionsDir, workspace, path.join(userDataDir, 'User'), logsDir]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...BASE_SETTINGS, ...options.settings }, null, 2));

  // A config file of the run's own, so code-server never writes ~/.config/code-server/config.yaml.
  const configFile = path.join(runDir, 'config.yaml');
  fs.writeFileSync(configFile, 'auth: none\ncert: false\n');
  if (options.vsix) {
    try {
      installVsix(host, options.vsix, extensionsDir, userDataDir, configFile);
    } catch (err) {
      // A .vsix being rewritten by a concurrent `npm run package` reads as a truncated zip: once more.
      if (!/central directory|truncated|not a zip/i.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 3000));
      installVsix(host, options.vsix, extensionsDir, userDataDir, configFile);
    }
  }
  for (const folder of options.extensionFolders ?? []) copyDir(folder, path.join(extensionsDir, path.basename(folder)));
  options.beforeStart?.({ runDir, userDataDir, extensionsDir, workspace });

  const port = options.port ?? (await freePort());
  const logFile = path.join(logsDir, `${options.name}-code-server.log`);
  const logFd = fs.openSync(logFile, 'w');
  const args = codeServerArgs(host, [
    '--auth', 'none',
    '--bind-addr', `${options.bindHost ?? '127.0.0.1'}:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--config', configFile,
    '--extensions-dir', extensionsDir,
    '--user-data-dir', userDataDir,
    workspace,
  ]);
  const child: ChildProcess = spawn(host.node, args, {
    cwd: workspace,
    env: { ...process.env, ...options.env, VSCODE_PROXY_URI: '' },
    stdio: ['ignore', logFd, logFd],
    detached: true,
  });
  fs.closeSync(logFd);
  let exited: string | undefined;
  child.on('exit', (code, signal) => {
    exited = `exited with ${code ?? signal}`;
    if (!closed && ready) options.onUnexpectedExit?.(exited);
  });
  let ready = false;

  const tail = (lines = 40): string => {
    try {
      return fs.readFileSync(logFile, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  };
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    unregister();
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      const timer = setTimeout(() => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, 3000);
      await done;
      clearTimeout(timer);
    }
    keepLogs();
    if (!options.keepRunDir) fs.rmSync(runDir, { recursive: true, force: true });
  };
  /** VS Code's own logs (server, extension host, output channels such as "Seven Bridges") outlive the run. */
  const keepLogs = (): void => {
    const from = path.join(userDataDir, 'logs');
    const to = path.join(logsDir, `${options.name}-vscode-logs`);
    try {
      fs.rmSync(to, { recursive: true, force: true });
      if (fs.existsSync(from)) fs.cpSync(from, to, { recursive: true });
    } catch {
      /* best effort */
    }
  };
  const unregister = onExit(() => {
    if (child.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    keepLogs();
    if (!options.keepRunDir) fs.rmSync(runDir, { recursive: true, force: true });
  });

  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  for (;;) {
    if (exited) {
      await close();
      throw new Error(`code-server ${exited} before it answered; its log (${logFile}):\n${tail()}`);
    }
    if ((await get(`${base}/healthz`)) === 200) break;
    if (Date.now() > deadline) {
      await close();
      throw new Error(`code-server did not answer on ${base} within ${options.startTimeoutMs ?? 60_000} ms; its log (${logFile}):\n${tail()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  ready = true;
  const url = `${base}/?folder=${encodeURIComponent(workspace)}`;
  return { url, port, workspace, runDir, userDataDir, extensionsDir, logFile, host, tail, close };
}
