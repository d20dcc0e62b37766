import type * as vscode from 'vscode';
import type { SbClient } from './api/client';
import type { Clock } from './api/clock';
import type { ProjectCache } from './api/projects';
import type { Session } from './auth/session';
import type { BudgetNotice } from './ui/budgetNotice';
import type { Selections } from './ui/commands';
import type { Account, Outbox } from './write/outbox';
import type { Transfers } from './jobs/transfers';

/** What every feature is built from; `extension.ts` makes one and hands it to each feature's register function. */
export interface Services {
  readonly context: vscode.ExtensionContext;
  readonly client: SbClient;
  readonly session: Session;
  readonly log: vscode.LogOutputChannel;
  /** The one clock: time is read and timers are set through it only (tests hand in test/support/fakeClock.ts). */
  readonly clock: Clock;
  /** The caller's projects, read once for every picker (forgotten when the sign-in changes). */
  readonly projects: ProjectCache;
  /** The selections of the tree views, which commands fall back on (ui/commands.ts). */
  readonly selections: Selections;
  /** The API budget in words while it is low (the account's tooltip and the Data Jobs view show it). */
  readonly budgetNotice: BudgetNotice;
  /** The one way to write to the platform (see `write/outbox.ts`). */
  readonly outbox: Outbox;
  /** The uploads and downloads under way, and the upload runs left unfinished: rows of the Data Jobs view. */
  readonly transfers: Transfers;
  /** The account in use, with its credentials (its username learned if need be); undefined while signed out. */
  account(): Promise<Account | undefined>;
}
