import type { Writable } from 'stream';

/**
 * Resolves once `out` may take more (its 'drain') or is gone (its 'close'), whichever comes first; the other listener
 * is taken off (left on, each wait added one to the response: Node warned of a leak past ten).
 */
export function drainedOrClosed(out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.once('drain', done);
    out.once('close', done);
  });
}
