// The machine the figures came from.
import * as os from 'os';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGb: number;
  node: string;
  platform: string;
  /** The 1-minute load average sampled every minute of the run (the machine may be shared): its least, median and most. */
  load?: { min: number; median: number; max: number };
}

/** Samples the 1-minute load average once a minute until `stop`, which returns their least, median and most. */
export function watchLoad(): { stop(): Machine['load'] } {
  const samples = [os.loadavg()[0]];
  const timer = setInterval(() => samples.push(os.loadavg()[0]), 60_000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      samples.push(os.loadavg()[0]);
      const sorted = [...samples].sort((a, b) => a - b);
      return { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1] };
    },
  };
}

export function machine(load?: Machine['load']): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    load,
  };
}

export function describeMachine(m: Machine): string {
  const load = m.load ? `; load average ${m.load.min.toFixed(1)}–${m.load.max.toFixed(1)} during the run (median ${m.load.median.toFixed(1)})` : '';
  return `${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB memory, Node ${m.node}, ${m.platform}${load}`;
}
