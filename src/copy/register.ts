import type { Services } from '../services';

/** The files view, the copy commands, the job tracker and its status-bar item. */
export function registerCopy(_services: Services): void {}
