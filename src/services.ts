import type * as vscode from 'vscode';
import type { SbClient } from './api/client';
import type { Session } from './auth/session';

/** What every feature is built from; `extension.ts` makes one and hands it to each feature's register function. */
export interface Services {
  readonly context: vscode.ExtensionContext;
  readonly client: SbClient;
  readonly session: Session;
  readonly log: vscode.LogOutputChannel;
}
