import type { Services } from '../services';

/** The task explorer: its tree, filters and commands. */
export function registerTasks(_services: Services): void {}
