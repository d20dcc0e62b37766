// What the in-host activation probe (host/activation.test.ts) writes and where; shared with the bench, which
// runs on plain Node and so must not import the probe itself (it needs `vscode`).

export const ACTIVATION_OUT_ENV = 'SB_BENCH_ACTIVATION_OUT';
/** `empty-first` or `product-first`: which of the two the probe activates first (the bench alternates). */
export const ACTIVATION_ORDER_ENV = 'SB_BENCH_ACTIVATION_ORDER';

/** An extension that does nothing, activated the same way as the product: the host's own cost of an activation. */
export const EMPTY_EXTENSION_ID = 'sbg-bench.empty-extension';
/**
 * Another empty extension, activated by the host on `onStartupFinished`; the probe starts once it is active and
 * the host has settled: activations during the workbench's startup wait on a busy workbench (each one fetches its
 * extension's stored state from it) and measured 5–175 ms for the empty extension alone.
 */
export const WARM_UP_EXTENSION_ID = 'sbg-bench.warm-up-extension';
/**
 * The activation event the bench gives the product (in its installed copy) and the empty extension: one the host
 * never fires, so that only the probe activates them, after startup, the same way (`extension.activate()`).
 */
export const PROBE_ACTIVATION_EVENT = 'onCommand:sbg-bench.activatedByTheProbeOnly';
export const EMPTY_EXTENSION_MAIN = 'exports.activate = () => {};\nexports.deactivate = () => {};\n';

export interface ActivationTiming {
  /** Already active when the probe ran (then activateMs says nothing). */
  wasActive: boolean;
  /** From `extension.activate()` called on the inactive extension until it resolved: load the main file, run activate. */
  activateMs: number;
}

export interface ActivationProbe {
  /** With `readyMs`: from the same call until the product had started (its `ready` resolved). */
  product: ActivationTiming & { readyMs?: number };
  empty: ActivationTiming;
  order: 'empty-first' | 'product-first';
  /** Requests the emulator received between the product's activate() being called and it resolving (signed in). */
  requestsDuringActivate: number;
  /** Requests it received in the 3 s after: what startup loads once activated (the token check, say). */
  requestsAfterActivate: number;
  vscodeVersion: string;
  node: string;
}
