import type * as vscode from 'vscode';
import type { SbClient } from './api/client';
import type { Session } from './auth/session';
import type { Account, Outbox } from './write/outbox';

/** What every feature is built from; `extension.ts` makes one and hands it to each feature's register function. */
export interface Services {
  readonly context: vscode.ExtensionContext;
  readonly client: SbClient;
  readonly session: Session;
  readonly log: vscode.LogOutputChannel;
  /** The one way to write to the platform (see `write/outbox.ts`). */
  readonly outbox: Outbox;
  /** The account in use, with its credentials (its username learned if need be); undefined while signed out. */
  account(): Promise<Account | undefined>;
}
