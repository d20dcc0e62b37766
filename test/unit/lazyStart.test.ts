import * as assert from 'assert';
import { onFirstRun, startSoon, type LazyStartHost } from '../../src/lazyStart';

/** A command registry like VS Code's: one handler per ID, a second registration of a live ID throws. */
class FakeHost implements LazyStartHost<string> {
  readonly commandIds = ['x.one', 'x.two'];
  readonly handlers = new Map<string, (...args: unknown[]) => unknown>();
  readonly events: string[] = [];
  private pending: (() => void)[] = [];
  starts = 0;

  registerCommand(id: string, run: (...args: unknown[]) => unknown) {
    if (this.handlers.has(id)) throw new Error(`command '${id}' already exists`);
    this.handlers.set(id, run);
    return { dispose: () => this.handlers.delete(id) };
  }
  async executeCommand(id: string, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(id);
    if (!handler) throw new Error(`command '${id}' not found`);
    return handler(...args);
  }
  async start(): Promise<string> {
    this.starts++;
    this.events.push('start');
    for (const id of this.commandIds) this.registerCommand(id, (...args) => `real ${id}(${args.join(',')})`);
    return 'started';
  }
  later(fn: () => void): void {
    this.pending.push(fn);
  }
  runLater(): void {
    for (const fn of this.pending.splice(0)) fn();
  }
}

describe('startSoon (activation that starts the extension right after)', () => {
  it('starts nothing during activation, then starts once in the next turn with the real commands', async () => {
    const host = new FakeHost();
    const ready = startSoon(host);
    await Promise.resolve();
    assert.strictEqual(host.starts, 0, 'nothing started before the next turn');
    assert.deepStrictEqual([...host.handlers.keys()], ['x.one', 'x.two'], 'stand-ins registered');
    host.runLater();
    assert.strictEqual(await ready, 'started');
    assert.strictEqual(host.starts, 1);
    assert.strictEqual(await host.executeCommand('x.two', 3), 'real x.two(3)');
  });

  it('a command run before the start starts the extension at once and runs the real command with its arguments', async () => {
    const host = new FakeHost();
    const ready = startSoon(host);
    assert.strictEqual(await host.executeCommand('x.one', 'a', 1), 'real x.one(a,1)');
    assert.strictEqual(host.starts, 1);
    host.runLater();
    assert.strictEqual(await ready, 'started');
    assert.strictEqual(host.starts, 1, 'started once, not again in the next turn');
  });

  it('a start that fails fails the stand-in and `ready` alike', async () => {
    const host = new FakeHost();
    host.start = async () => {
      throw new Error('broken bundle');
    };
    const ready = startSoon(host);
    await assert.rejects(host.executeCommand('x.one'), /broken bundle/);
    host.runLater();
    await assert.rejects(ready, /broken bundle/);
  });
});

describe('onFirstRun (the command tables of dist/features.js, registered when a command is first run)', () => {
  it('starts nothing until a command runs; two commands run together start once, each then runs for real', async () => {
    const host = new FakeHost();
    const start = onFirstRun(host);
    await Promise.resolve();
    assert.strictEqual(host.starts, 0, 'nothing loaded without a command');
    const [one, two] = await Promise.all([host.executeCommand('x.one', 'a'), host.executeCommand('x.two', 2)]);
    assert.deepStrictEqual([one, two], ['real x.one(a)', 'real x.two(2)']);
    assert.strictEqual(host.starts, 1);
    assert.strictEqual(await start(), 'started', 'the same start when asked directly afterwards');
    assert.strictEqual(host.starts, 1);
  });
});
