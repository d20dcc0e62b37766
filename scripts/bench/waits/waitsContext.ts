// What the waits' cases, floors and runner share: the context a run gets, what a run returns, what a case and
// latency give, and how many runs make a figure.
import type { SbClient } from '../../../src/api/client';
import type { Workbench } from '../../../test/e2e/workbench';
import type { Emulator, ReceivedRequest } from '../../../test/emulator';
import type { WaitsData } from './waitsData';

export interface WaitsContext {
  readonly wb: Workbench;
  readonly emulator: Emulator;
  readonly data: WaitsData;
  /** The workspace folder the code-server opened (Download… offers it). */
  readonly workspace: string;
  readonly latencyMs: number;
  /** Which pass (one per latency, from 0) of how many runs each: the floor's documents are one per run of a pass. */
  readonly pass: number;
  readonly runs: number;
  /** The bench's own client to the emulator: the requests a case needs, sent bare. */
  readonly client: SbClient;
}

/**
 * One timed try: its waits (summed for the figure), the API requests the emulator received while they ran (`at`: ms
 * after the first action, on the machine's clock), and how many went to its storage.
 */
export interface TimedRun {
  waits: number[];
  requests: Pick<ReceivedRequest, 'method' | 'path' | 'at'>[];
  storageRequests: number;
}

export const WAIT_LATENCIES_MS = [0, 80];
/** Each figure is the median of this many runs (its floor and its requests too). */
export const WAIT_RUNS = 5;

/** One case at one latency. */
export interface CaseResult {
  id: CaseId;
  latencyMs: number;
  /** The product's runs. */
  runs: TimedRun[];
  /** The drawing floor's runs (ms, each the sum of its waits), and the bare requests' (ms). */
  floor: number[];
  network: number[];
  /** The host the runs were in. */
  host: string;
  error?: string;
}

export type FloorId = 'rowsAfterEnter' | 'groupOpened' | 'documentOpened' | 'downloadQuestionAndSummary';
export type CaseId = 'signIn' | 'openGroup' | 'openFile' | 'download' | 'findByTag' | 'runTask';
