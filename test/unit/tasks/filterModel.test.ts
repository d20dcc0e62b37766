import * as assert from 'assert';
import {
  buildQuery,
  checkRange,
  describeFilter,
  FilterModel,
  isFilterActive,
  sanitizeFilter,
  visibleStatuses,
} from '../../../src/tasks/filterModel';
import { memoryState } from '../../support/sharedState';
import { checkTaskQuery } from '../../../src/api/tasks';
import { STATE } from '../../../src/keys/state';

const NOW = Date.UTC(2026, 2, 7, 12, 0, 0);
const PARENT = '0f0e0d0c-1111-4222-8333-444455556666';

describe('task filter model', () => {
  describe('query per status group', () => {
    it('asks for the newest first and nothing else when no filter is set', () => {
      assert.deepStrictEqual(buildQuery({}, 'RUNNING', NOW), { order_by: 'created_time', order: 'desc', status: 'RUNNING' });
      assert.deepStrictEqual(buildQuery({}, undefined, NOW), { order_by: 'created_time', order: 'desc' });
    });

    it('combines every kind of filter with AND, each as its API parameter', () => {
      const query = buildQuery(
        {
          statuses: ['FAILED'],
          project: 'rfranklin/my-project',
          parent: { id: PARENT, name: 'batch' },
          created: { preset: 'day' },
          started: { from: '2026-03-01', to: '2026-03-05T10:00:00+01:00' },
          ended: { to: '2026-03-06T23:59:59' },
        },
        'FAILED',
        NOW,
      );
      assert.deepStrictEqual(query, {
        order_by: 'created_time',
        order: 'desc',
        status: 'FAILED',
        project: 'rfranklin/my-project',
        parent: PARENT,
        created_from: '2026-03-06T12:00:00',
        started_from: '2026-03-01',
        started_to: '2026-03-05T10:00:00+01:00',
        ended_to: '2026-03-06T23:59:59',
      });
      assert.doesNotThrow(() => checkTaskQuery(query), 'the client accepts what the model builds');
    });

    it('evaluates presets against the time of the request, in the UTC form without Z', () => {
      assert.strictEqual(buildQuery({ ended: { preset: 'hour' } }, 'COMPLETED', NOW).ended_from, '2026-03-07T11:00:00');
      assert.strictEqual(buildQuery({ ended: { preset: 'week' } }, 'COMPLETED', NOW).ended_from, '2026-02-28T12:00:00');
      assert.strictEqual(buildQuery({ ended: { preset: 'month' } }, 'COMPLETED', NOW + 3600_000).ended_from, '2026-02-05T13:00:00');
    });

    it('a status filter hides the other groups, keeping the view order', () => {
      assert.deepStrictEqual(visibleStatuses({ statuses: ['FAILED', 'RUNNING'] }), ['RUNNING', 'FAILED']);
      assert.deepStrictEqual(visibleStatuses({}), ['RUNNING', 'QUEUED', 'DRAFT', 'COMPLETED', 'FAILED', 'ABORTED']);
    });
  });

  describe('labels in words', () => {
    it('says nothing when nothing filters', () => {
      assert.strictEqual(describeFilter({}), undefined);
      assert.strictEqual(isFilterActive({}), false);
    });

    it('names each active filter in a fixed order', () => {
      assert.strictEqual(
        describeFilter({ created: { preset: 'day' }, statuses: ['RUNNING', 'FAILED'], project: 'rfranklin/my-project' }),
        'Running, Failed · my-project · created in the last 24 hours',
      );
      assert.strictEqual(describeFilter({ parent: { id: PARENT, name: 'WGS batch' } }), 'children of "WGS batch"');
      assert.strictEqual(describeFilter({ parent: { id: PARENT } }), 'children of 0f0e0d0c…');
      const long = 'Whole-genome germline calling of the 2026 cohort, batch 7 of 12';
      assert.strictEqual(describeFilter({ parent: { id: PARENT, name: long }, ended: { preset: 'day' } }), 'children of "Whole-genome germline c…" · ended in the last 24 hours');
      assert.strictEqual(
        describeFilter({ started: { from: '2026-03-01', to: '2026-03-07' }, ended: { from: '2026-03-02' }, created: { to: '2026-03-03' } }),
        'created until 2026-03-03 · started from 2026-03-01 to 2026-03-07 · ended since 2026-03-02',
      );
      assert.strictEqual(describeFilter({ ended: { preset: 'hour' } }), 'ended in the last hour');
    });
  });

  describe('validation', () => {
    it('accepts the three forms and open-ended ranges', () => {
      assert.strictEqual(checkRange('2026-03-01', '2026-03-07T10:00:00'), undefined);
      assert.strictEqual(checkRange('2026-03-01T10:00:00+02:00', undefined), undefined);
      assert.strictEqual(checkRange(undefined, '2026-03-01'), undefined);
    });

    it('says what is wrong with a bound, and which one', () => {
      assert.match(checkRange('2026-03-01T10:00:00Z', undefined)!, /^From: A trailing Z/);
      assert.match(checkRange('2026-03-01', '2026-02-30')!, /^To: Day 30 does not exist/);
      assert.match(checkRange('', '')!, /start, an end, or both/);
    });

    it('refuses a from after its to, comparing instants (offsets included)', () => {
      assert.match(checkRange('2026-03-07', '2026-03-01')!, /"From" \(2026-03-07\) is after "to" \(2026-03-01\)/);
      // 10:00+02:00 is 08:00 UTC: before 09:00 UTC.
      assert.strictEqual(checkRange('2026-03-01T10:00:00+02:00', '2026-03-01T09:00:00'), undefined);
      assert.ok(checkRange('2026-03-01T10:00:00-02:00', '2026-03-01T09:00:00'));
    });

    it('drops what is not a valid filter when reading stored state', () => {
      const stored = (value: unknown) => sanitizeFilter(STATE.taskFilter.read(value));
      assert.deepStrictEqual(
        stored({
          statuses: ['RUNNING', 'CREATING', 'bogus'],
          project: 'not a project',
          parent: { id: 'nope' },
          created: { preset: 'year' },
          started: { from: '2026-03-07', to: '2026-03-01' },
          ended: { from: ' 2026-03-01 ' },
        }),
        { statuses: ['RUNNING'], ended: { from: '2026-03-01' } },
      );
      assert.deepStrictEqual(stored('garbage'), {});
      assert.deepStrictEqual(stored({ statuses: ['RUNNING', 'QUEUED', 'DRAFT', 'COMPLETED', 'FAILED', 'ABORTED'] }), {}, 'all six is no filter');
    });
  });

  describe('state', () => {
    it('persists through the memento, fires on change, and clears', async () => {
      const memento = memoryState();
      const model = new FilterModel(memento);
      const seen: unknown[] = [];
      model.onDidChange((f) => seen.push(f));
      await model.update({ project: 'rfranklin/my-project' });
      await model.update({ statuses: ['FAILED'] });
      assert.deepStrictEqual(memento.get(STATE.taskFilter.key), { project: 'rfranklin/my-project', statuses: ['FAILED'] });
      assert.strictEqual(model.active, true);

      const reopened = new FilterModel(memento);
      assert.deepStrictEqual(reopened.filter, { project: 'rfranklin/my-project', statuses: ['FAILED'] });
      assert.strictEqual(reopened.description, 'Failed · my-project');

      await model.update({ project: undefined });
      assert.deepStrictEqual(model.filter, { statuses: ['FAILED'] });
      await model.update({ statuses: ['FAILED'] });
      assert.strictEqual(seen.length, 3, 'no event when nothing changes');
      await model.clear();
      assert.strictEqual(memento.get(STATE.taskFilter.key), undefined);
      assert.strictEqual(model.active, false);
      assert.strictEqual(seen.length, 4);
    });
  });
});
