// With SB_BENCH_PROFILE=<folder>, CPU profiles of the stretches a bench process chooses (a transfer's run, in the
// product's worker and in the emulator's process), written there as `<name>-<pid>-<n>.cpuprofile` (open them in
// Chrome's DevTools or VS Code). Without it, nothing.
import * as fs from 'fs';
import { Session } from 'inspector';
import * as path from 'path';

export interface Profiler {
  start(): Promise<void>;
  stop(): Promise<void>;
}

let written = 0;

export function profiler(name: string): Profiler {
  const folder = process.env.SB_BENCH_PROFILE;
  if (!folder) return { start: async () => undefined, stop: async () => undefined };
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))));
  return {
    start: async () => {
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 200 });
      await post('Profiler.start');
    },
    stop: async () => {
      const { profile } = (await post('Profiler.stop')) as { profile: object };
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, `${name}-${process.pid}-${++written}.cpuprofile`), JSON.stringify(profile));
    },
  };
}
