// The uploads and downloads under way in this window, as the Data Jobs view shows them: each with its progress
// (files, bytes) and its Cancel; and the upload runs a reload or a fault left unfinished (their records in global
// state, transfer/resumeState.ts), each with Resume and Discard. The commands that move the bytes (remote/upload.ts,
// remote/download.ts) say here what they do. Whether another window runs a transfer is the write path's liveness
// (write/liveness.ts): each window's heartbeat names the transfers it runs. Pure: no `vscode`.
import type { FileLocation } from '../api/files';
import { Emitter } from '../util/emitter';

export type TransferKind = 'upload' | 'download';

/** A transfer under way in this window. */
export interface LiveTransfer {
  id: string;
  kind: TransferKind;
  /** Where it goes, in words: the project or folder (an upload), the local folder (a download). */
  label: string;
  /** The account it moves bytes for (`endpoint#username`): only that account's are shown. */
  account: string;
  /** This machine's clock: shown only. */
  startedAt: number;
  /** How far it is, as its engine last counted it; undefined until it has. */
  progress?: TransferFigures;
  /** Stopping: Cancel was pressed, its uploads are being aborted. */
  cancelling?: boolean;
  /** The upload run's record, when it keeps one (its ID). */
  runId?: string;
}

/** How far a transfer is: the engine's count (the shape of transfer/progress.ts's `TransferProgress`). */
export interface TransferFigures {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** Undefined until it is measured. */
  bytesPerSecond: number | undefined;
  /** Undefined while the rate is not known. */
  secondsLeft: number | undefined;
}

/** What a command holds while its transfer runs: it tells the progress, and that it ended. */
export interface TransferHandle {
  readonly id: string;
  report(progress: TransferFigures): void;
  end(): void;
}

/**
 * A transfer left unfinished, as its records in global state say (transfer/resumeState.ts): an upload run
 * (UploadRunResume), or the `.part` files a download left in one local folder (DownloadResume, one per file).
 */
export interface InterruptedRun {
  kind: TransferKind;
  runId: string;
  /** Where it goes, in words: the project or folder (an upload), the local folder (a download). */
  label: string;
  /** Files not uploaded yet, of the run's. */
  filesLeft: number;
  filesTotal: number;
  /** Bytes not sent yet. */
  bytesLeft: number;
  /** This machine's clock: when it began (shown only). */
  startedAt: number;
}

/** Where the interrupted runs are read from: the account's records (main.ts reads them). */
export interface InterruptedSource {
  runs(account: string): InterruptedRun[];
}

/** What the view's Resume and Discard do to an interrupted transfer (remote/upload.ts, remote/download.ts do it). */
export interface TransferActions {
  /** Runs it again from where it was: an upload's files not completed, from the parts already sent; a download's from its `.part` files. */
  resume(run: InterruptedRun): Promise<unknown>;
  /** An upload's multipart uploads aborted on the platform, a download's `.part` files deleted; the records forgotten. Resolves with how many. */
  discard(run: InterruptedRun): Promise<number>;
}

/**
 * Which transfers the windows run, on the write path's liveness (the outbox's `keepAlive` and `workElsewhere`): this
 * window's heartbeat names each transfer it runs; those another window alive names are still moving there.
 */
export interface TransferLiveness {
  keepAlive(work: string): { dispose(): void };
  workElsewhere(): ReadonlySet<string>;
}

/** What a window's heartbeat names while it runs a transfer: an upload by its run, a download by its local folder. */
export function transferWork(kind: TransferKind, label: string, runId?: string): string {
  return kind === 'upload' && runId ? `upload:${runId}` : `${kind}:${label}`;
}

export class Transfers {
  private readonly live = new Map<string, { transfer: LiveTransfer; cancel: () => void }>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private next = 0;
  /** Runs being resumed or discarded from the view: not shown as interrupted meanwhile. */
  private readonly busy = new Set<string>();
  /** What Resume and Discard do, by kind (set by the transfer features). */
  readonly actions: Partial<Record<TransferKind, TransferActions>> = {};

  constructor(
    private readonly now: () => number,
    private readonly source: InterruptedSource = { runs: () => [] },
    private readonly liveness: TransferLiveness = { keepAlive: () => ({ dispose: () => undefined }), workElsewhere: () => new Set() },
  ) {}

  /** A transfer begins: shown until `end`. `cancel` is what the row's Cancel does. */
  start(kind: TransferKind, label: string, account: string, cancel: () => void, runId?: string): TransferHandle {
    const id = `${kind}:${++this.next}`;
    const transfer: LiveTransfer = { id, kind, label, account, startedAt: this.now(), ...(runId ? { runId } : {}) };
    this.live.set(id, { transfer, cancel });
    // Other windows see it running as long as this window beats and names it.
    const alive = this.liveness.keepAlive(transferWork(kind, label, runId));
    this.changed.fire();
    return {
      id,
      report: (progress) => {
        transfer.progress = { ...progress };
        this.changed.fire();
      },
      end: () => {
        alive.dispose();
        if (this.live.delete(id)) this.changed.fire();
      },
    };
  }

  /** The transfers under way of `account`, newest first. */
  all(account: string | undefined): LiveTransfer[] {
    return [...this.live.values()].map((l) => l.transfer).filter((t) => t.account === account).sort((a, b) => b.startedAt - a.startedAt);
  }

  get(id: string): LiveTransfer | undefined {
    return this.live.get(id)?.transfer;
  }

  /** Cancel: the command stops and aborts what it began (its row says so until it has). */
  cancel(id: string): boolean {
    const entry = this.live.get(id);
    if (!entry || entry.transfer.cancelling) return false;
    entry.transfer.cancelling = true;
    this.changed.fire();
    entry.cancel();
    return true;
  }

  /**
   * The transfers of `account` left unfinished: their records, less those a window alive runs (this one, or another
   * whose heartbeat names it, on the write path's monotonic liveness: never by the times saved in records), oldest first.
   */
  interrupted(account: string | undefined): InterruptedRun[] {
    if (account === undefined) return [];
    const running = new Set([...this.live.values()].map(({ transfer: t }) => transferWork(t.kind, t.label, t.runId)));
    for (const work of this.liveness.workElsewhere()) running.add(work);
    // A download under way writes its `.part` files somewhere below its folder.
    const downloading = [...running].filter((w) => w.startsWith('download:')).map((w) => w.slice('download:'.length));
    const below = (dir: string, folder: string) => dir === folder || dir.startsWith(folder.endsWith('/') || folder.endsWith('\\') ? folder : `${folder}/`) || dir.startsWith(`${folder}\\`);
    return this.source
      .runs(account)
      .filter((run) => !this.busy.has(run.runId) && (run.kind === 'download' ? !downloading.some((folder) => below(run.label, folder)) : !running.has(`upload:${run.runId}`)))
      .sort((a, b) => a.startedAt - b.startedAt);
  }

  /** While a run is resumed or discarded from the view, its row is not shown as interrupted. */
  async working<T>(runId: string, work: () => Promise<T>): Promise<T> {
    this.busy.add(runId);
    this.changed.fire();
    try {
      return await work();
    } finally {
      this.busy.delete(runId);
      this.changed.fire();
    }
  }

  /** Something else changed what is shown (a record removed): the view draws again. */
  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** A place on the platform, in words when nothing better is known. */
export function locationWords(location: FileLocation): string {
  return 'project' in location ? location.project : location.parent;
}
