import * as assert from 'assert';
import { isOptions, resolveTargets, type PickRequest, type TargetSpec, type TargetType } from '../../../src/ui/targets';

/** A thing the commands act on: a row `{ kind: 'task', task }`, a record `{ id }`, or an ID 't…'. */
interface Thing {
  id: string;
  ok?: boolean;
}

const row = (id: string, ok = true) => ({ kind: 'task', id: `row/${id}`, task: { id, ok } });
const other = (id: string) => ({ kind: 'file', id });

function things(picked: Thing[] = []): TargetType<Thing, { list: string }> & { asked: PickRequest<Thing, { list: string }>[] } {
  const asked: PickRequest<Thing, { list: string }>[] = [];
  return {
    asked,
    read: (value) => {
      if (typeof value === 'string') return value.startsWith('t') ? { id: value } : undefined;
      const v = value as { kind?: string; task?: Thing; id?: unknown };
      if (v?.kind === 'task') return v.task;
      return !v?.kind && typeof v?.id === 'string' && v.id.startsWith('t') ? (value as Thing) : undefined;
    },
    key: (t) => t.id,
    pick: async (request) => {
      asked.push(request);
      return picked;
    },
  };
}

const context = (selections: unknown[][] = [], many = true) => ({ selections: () => selections, title: 'Seven Bridges: Act', many });
const ids = (found: { targets: Thing[] } | undefined) => found?.targets.map((t) => t.id);

describe('targets: what a command acts on', () => {
  it('takes the row clicked, or the rows selected with it (VS Code passes both), each once', async () => {
    const type = things();
    assert.deepStrictEqual(ids(await resolveTargets({ type }, [row('t1')], context())), ['t1']);
    assert.deepStrictEqual(ids(await resolveTargets({ type }, [row('t1'), [row('t1'), row('t2'), row('t1')]], context())), ['t1', 't2']);
    assert.deepStrictEqual(ids(await resolveTargets({ type }, ['t3', { id: 't4' }], context())), ['t3', 't4'], 'an ID and a record from a script');
    assert.deepStrictEqual(ids(await resolveTargets({ type }, [row('t1'), [row('t1'), row('t2')]], context([], false))), ['t1'], 'one target: the first');
    assert.deepStrictEqual(type.asked, []);
  });

  it('takes what an argument names as given, even when it does not fit (the run says why it cannot act)', async () => {
    const type = things();
    const found = await resolveTargets({ type, fits: (t) => t.ok === true }, [row('t1', false)], context([[row('t2')]]));
    assert.deepStrictEqual(ids(found), ['t1']);
  });

  it('reads the options after the targets: a plain object that is no row', async () => {
    const type = things();
    const found = await resolveTargets({ type }, [row('t1'), undefined, { confirm: false }], context());
    assert.deepStrictEqual([ids(found), found?.options], [['t1'], { confirm: false }]);
    assert.deepStrictEqual([isOptions({ confirm: false }), isOptions(row('t1')), isOptions(new Date()), isOptions(null), isOptions([])], [true, false, false, false, false]);
  });

  it('does nothing when an argument points at something else (a row of another kind, an ID that is not one)', async () => {
    const type = things([{ id: 't9' }]);
    assert.strictEqual(await resolveTargets({ type }, [other('f1')], context([[row('t2')]])), undefined);
    assert.strictEqual(await resolveTargets({ type }, ['not-an-id'], context([[row('t2')]])), undefined);
    assert.strictEqual(await resolveTargets({ type }, [[other('f1')]], context([[row('t2')]])), undefined);
    assert.deepStrictEqual(type.asked, [], 'and asks nothing');
  });

  it('then the IDs named in the options (a script\'s copy), as given: duplicates are the flow\'s to tell', async () => {
    const type = things();
    const named = (options: Record<string, unknown>) => (options.ids as string[] | undefined)?.map((id) => ({ id }));
    const found = await resolveTargets({ type, named }, [{ ids: ['t5', 't5'], confirm: false }], context([[row('t2')]]));
    assert.deepStrictEqual(ids(found), ['t5', 't5']);
  });

  it('then the selection of the view selected in last that holds targets that fit', async () => {
    const type = things();
    const fits = (t: Thing) => t.ok === true;
    const selections = [[other('f1')], [row('t2', false), row('t3'), row('t4')], [row('t5')]];
    assert.deepStrictEqual(ids(await resolveTargets({ type, fits }, [], context(selections))), ['t3', 't4']);
    assert.deepStrictEqual(ids(await resolveTargets({ type, fits }, [], context(selections, false))), ['t3']);
    assert.strictEqual(await resolveTargets({ type, from: 'argument' }, [], context(selections)), undefined, 'a row\'s own button: its argument only');
  });

  it('then the pick, among what fits, with the command\'s title and wishes; or `orElse` in its place', async () => {
    const type = things([{ id: 't7' }]);
    const fits = (t: Thing) => t.ok === true;
    const found = await resolveTargets({ type, fits, ask: { list: 'batch' } }, [], context([[other('f1')]]));
    assert.deepStrictEqual(ids(found), ['t7']);
    assert.deepStrictEqual(
      type.asked.map((a) => [a.title, a.many, a.ask, a.fits({ id: 'x', ok: true }), a.fits({ id: 'y' })]),
      [['Seven Bridges: Act', true, { list: 'batch' }, true, false]],
    );
    const spec: TargetSpec<Thing, { list: string }> = { type, orElse: (options) => `asked something else (${JSON.stringify(options)})` };
    const fallback = await resolveTargets(spec, [{ confirm: false }], context());
    assert.deepStrictEqual(fallback, { targets: [], options: { confirm: false }, fallback: 'asked something else ({"confirm":false})' });
    assert.strictEqual(type.asked.length, 1, 'orElse replaces the pick');
    const dismissed = await resolveTargets({ type: things([]) }, [], context());
    assert.deepStrictEqual(dismissed, { targets: [], options: {} });
  });
});
