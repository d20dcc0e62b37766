import * as vscode from 'vscode';
import { SbClient } from './api/client';
import { Session } from './auth/session';
import { registerAuth } from './auth/register';
import { registerTasks, type TaskExplorer } from './tasks/register';
import { registerCopy, type CopyFeature } from './copy/register';
import type { Services } from './services';
import { requestLogger } from './ui/requestLog';
import { Outbox } from './write/outbox';

/** What `activate` returns: the running parts, for the integration tests and for other extensions. */
export interface ExtensionApi {
  readonly services: Services;
  /** The task explorer's models and view. */
  readonly tasks: TaskExplorer;
  /** The files view, the copy flow, the job tracker and the unsubmitted requests. */
  readonly copy: CopyFeature;
}

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const started = Date.now();
  const log = vscode.window.createOutputChannel('Seven Bridges', { log: true });
  const session = new Session(context.secrets, log);
  const client = new SbClient({
    credentials: () => session.credentials(),
    userAgent: `sevenbridges-vscode/${context.extension.packageJSON.version}`,
    onRequest: requestLogger(log),
  });
  const account = () => session.account(async (credentials) => (await client.user({ credentials })).username);
  const outbox = new Outbox(context.globalState, account);
  context.subscriptions.push(log, session, outbox, session.onDidChange(() => outbox.poke()));

  const services: Services = { context, client, session, log, outbox, account };
  registerAuth(services);
  const tasks = registerTasks(services);
  const copy = registerCopy(services);
  outbox.start();
  log.info(`Activated in ${Date.now() - started} ms`);
  return { services, tasks, copy };
}

export function deactivate(): void {}
