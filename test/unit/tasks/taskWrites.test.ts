import * as assert from 'assert';
import type { Task } from '../../../src/api/types';
import { holdsInputs, isCreateTaskPayload, isMadeBy, type CreateTaskPayload } from '../../../src/tasks/taskWrites';

const payload: CreateTaskPayload = {
  run: true,
  task: { project: 'rfranklin/p', app: 'rfranklin/p/variant-filter/2', name: 'VF 1', inputs: { vcf: { class: 'File', path: 'ABCDEF0123456789abcdef01' }, min_quality: 20 } },
};
const made = (over: Partial<Task>): Task => ({
  href: '', id: 't1', name: 'VF 1', app: 'rfranklin/p/variant-filter/2', project: 'rfranklin/p',
  inputs: { vcf: { class: 'File', path: 'abcdef0123456789abcdef01', name: 'a.vcf' }, min_quality: 20, mode: 'strict' }, ...over,
});

describe('task.create: which new task a lost create made', () => {
  it('is the task of its project, app, name and inputs (a file by its ID, whatever name the platform adds; inputs the platform fills in are not asked)', () => {
    assert.strictEqual(isMadeBy(made({}), payload), true);
  });

  it('is not a task of another name, app, project or input value', () => {
    assert.strictEqual(isMadeBy(made({ name: 'VF 2' }), payload), false);
    assert.strictEqual(isMadeBy(made({ app: 'rfranklin/p/variant-filter/3' }), payload), false);
    assert.strictEqual(isMadeBy(made({ project: 'rfranklin/q' }), payload), false);
    assert.strictEqual(isMadeBy(made({ inputs: { vcf: { class: 'File', path: 'abcdef0123456789abcdef02' }, min_quality: 20 } }), payload), false);
    assert.strictEqual(isMadeBy(made({ inputs: { vcf: { class: 'File', path: 'abcdef0123456789abcdef01' }, min_quality: 30 } }), payload), false);
  });

  it('a name not asked matches any (the platform names the task); the app is its revision exactly', () => {
    const unnamed: CreateTaskPayload = { run: false, task: { ...payload.task, name: undefined } };
    assert.strictEqual(isMadeBy(made({ name: 'Variant filter run 12:00' }), unnamed), true);
    assert.strictEqual(isMadeBy(made({ app: 'rfranklin/p/variant-filter' }), unnamed), false);
  });

  it('a list of files matches item by item, in order', () => {
    const asked = { reads: [{ class: 'File', path: 'a'.repeat(24) }, { class: 'File', path: 'b'.repeat(24) }] };
    assert.strictEqual(holdsInputs({ inputs: { reads: [{ class: 'File', path: 'a'.repeat(24) }, { class: 'File', path: 'b'.repeat(24) }] } }, asked), true);
    assert.strictEqual(holdsInputs({ inputs: { reads: [{ class: 'File', path: 'b'.repeat(24) }, { class: 'File', path: 'a'.repeat(24) }] } }, asked), false);
  });

  it('a payload read back is checked', () => {
    assert.strictEqual(isCreateTaskPayload(payload), true);
    for (const damaged of [null, {}, { run: true }, { run: 'yes', task: payload.task }, { run: true, task: { app: 'x' } }, { run: true, task: { ...payload.task, inputs: [] } }]) {
      assert.strictEqual(isCreateTaskPayload(damaged), false, JSON.stringify(damaged));
    }
  });
});
