// What the in-host activation probe (host/activation.test.ts) writes and where; shared with the bench, which
// runs on plain Node and so must not import the probe itself (it needs `vscode`).

export const ACTIVATION_OUT_ENV = 'SB_BENCH_ACTIVATION_OUT';

export interface ActivationProbe {
  /** The product was already active when the probe ran (then activateMs says nothing). */
  wasActive: boolean;
  activateMs: number;
  vscodeVersion: string;
  node: string;
}
