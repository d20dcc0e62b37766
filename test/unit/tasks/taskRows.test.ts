import * as assert from 'assert';
import type { Task } from '../../../src/api/types';
import { hasFileOutputs, outputFileIds } from '../../../src/api/outputs';
import { loadMoreLabel } from '../../../src/ui/rowView';
import { escapeMarkdown } from '../../../src/util/markdown';
import { statusLook } from '../../../src/tasks/statuses';
import { batchSummary, groupView, taskContextValue, taskTime, taskTooltip, taskView } from '../../../src/tasks/taskRows';

const NOW = Date.UTC(2026, 2, 7, 12, 0, 0);
const ID = 'bd5e95d9-12b3-789c-45b6-34d8696571a9';

function task(overrides: Partial<Task> = {}): Task {
  return {
    href: `https://api.sbgenomics.com/v2/tasks/${ID}`,
    id: ID,
    name: 'grep run - 11-26-15 14:14:14',
    status: 'COMPLETED',
    project: 'rfranklin/my-project',
    app: 'rfranklin/my-project/grep/5',
    created_by: 'rfranklin',
    created_time: '2026-03-07T11:00:00Z',
    start_time: '2026-03-07T11:05:00Z',
    end_time: '2026-03-07T11:55:00Z',
    batch: false,
    parent: null,
    execution_status: { message: 'Completed', steps_completed: 3, steps_total: 3, duration: 3000 },
    price: { currency: 'USD', amount: 0.0234 },
    errors: [],
    warnings: [],
    outputs: { out: { class: 'File', path: '567890abc9b0307bc0414999', name: 'out.txt' } },
    ...overrides,
  };
}

describe('task rows', () => {
  describe('icons per status', () => {
    it('uses a codicon and a theme colour per status, spinning while running', () => {
      assert.deepStrictEqual(statusLook('RUNNING').icon, { id: 'sync~spin', color: 'charts.blue' });
      assert.deepStrictEqual(statusLook('COMPLETED').icon, { id: 'pass', color: 'testing.iconPassed' });
      assert.deepStrictEqual(statusLook('FAILED').icon, { id: 'error', color: 'testing.iconFailed' });
      assert.strictEqual(statusLook('QUEUED').icon.id, 'clock');
      assert.strictEqual(statusLook('DRAFT').icon.id, 'edit');
      assert.strictEqual(statusLook('ABORTED').icon.id, 'circle-slash');
    });

    it('says where CREATING and ABORTING tasks are heading', () => {
      assert.match(statusLook('CREATING').note!, /Creating .*moving to Queued\/Running/);
      assert.match(statusLook('ABORTING').note!, /moving to Aborted/);
    });

    it('shows an unknown status as such instead of failing', () => {
      const look = statusLook('PAUSED');
      assert.strictEqual(look.label, 'Paused');
      assert.strictEqual(look.icon.id, 'question');
      assert.match(look.note!, /PAUSED.*not known/);
      assert.strictEqual(statusLook(undefined).label, 'Unknown');
      const view = taskView(task({ status: 'PAUSED' }), { now: NOW });
      assert.match(view.tooltip, /not known to this extension/);
    });
  });

  describe('description', () => {
    it('says first when it ended, then the project (left out when the view is filtered to it)', () => {
      assert.strictEqual(taskView(task(), { now: NOW }).description, 'ended 5 minutes ago · rfranklin/my-project');
      assert.strictEqual(taskView(task(), { now: NOW, hideProject: true }).description, 'ended 5 minutes ago');
    });

    it('says a status no group names (aborting, creating, unknown) first in its label: the icon alone does not tell it', () => {
      const running = { end_time: undefined };
      const aborting = taskView(task({ ...running, status: 'ABORTING' }), { now: NOW });
      assert.deepStrictEqual(
        [aborting.label, aborting.description, aborting.ariaLabel],
        ['aborting · grep run - 11-26-15 14:14:14', 'started 55 minutes ago · rfranklin/my-project', 'grep run - 11-26-15 14:14:14, aborting, started 55 minutes ago, rfranklin/my-project'],
      );
      assert.strictEqual(taskView(task({ ...running, status: 'CREATING', name: 'batch' }), { now: NOW }).label, 'creating · batch');
      assert.strictEqual(taskView(task({ ...running, status: 'PAUSED', name: 'later' }), { now: NOW }).label, 'paused · later');
      assert.strictEqual(taskView(task({ status: undefined, name: 'odd' }), { now: NOW }).label, 'unknown · odd');
      assert.strictEqual(taskView(task({ status: 'FAILED', name: 'plain' }), { now: NOW }).label, 'plain', 'the six statuses: the group and the icon say it');
    });

    it('gives screen readers the name, the status and the description in plain words', () => {
      const long = 'a'.repeat(30) + ' *bold* ' + 'b'.repeat(22);
      const view = taskView(task({ name: long }), { now: NOW });
      assert.strictEqual(view.ariaLabel, `${long}, completed, ended 5 minutes ago, rfranklin/my-project`);
      assert.strictEqual(groupView('FAILED', 3).ariaLabel, '3 failed tasks match');
      assert.strictEqual(groupView('FAILED', undefined).ariaLabel, 'Failed tasks, counting');
    });

    it('says when a running task started, and when a queued or draft one was created', () => {
      assert.strictEqual(taskTime(task({ status: 'RUNNING', end_time: undefined }), NOW), 'started 55 minutes ago');
      assert.strictEqual(taskTime(task({ status: 'QUEUED', start_time: undefined, end_time: undefined }), NOW), 'created 1 hour ago');
      assert.strictEqual(taskTime(task({ status: 'DRAFT', start_time: undefined, end_time: undefined, created_time: '2026-03-05T12:00:00Z' }), NOW), 'created 2 days ago');
      assert.strictEqual(taskTime(task({ status: 'FAILED', end_time: '2026-03-05T12:00:00Z' }), NOW), 'ended 2 days ago');
      assert.strictEqual(taskTime(task({ created_time: undefined, start_time: undefined, end_time: undefined }), NOW), undefined);
    });

    it('sums up a batch parent from its execution_status', () => {
      const parent = task({
        batch: true,
        status: 'RUNNING',
        end_time: undefined,
        execution_status: { completed: 12, running: 3, failed: 1, queued: 0, aborted: 0 },
      });
      assert.strictEqual(batchSummary(parent), '12 done · 3 running · 1 failed');
      const view = taskView(parent, { now: NOW });
      assert.strictEqual(view.description, 'started 55 minutes ago · 12 done · 3 running · 1 failed · rfranklin/my-project');
      assert.strictEqual(view.expandable, true);
      assert.strictEqual(batchSummary(task({ execution_status: { queued: 0 } })), undefined);
      assert.strictEqual(batchSummary({ execution_status: { queued: 2, aborted: 1 } }), '2 queued · 1 aborted');
    });

    it('falls back to the ID when a task has no name', () => {
      assert.strictEqual(taskView(task({ name: '' }), { now: NOW }).label, ID);
    });
  });

  describe('context value', () => {
    it('marks batch parents and completed tasks with file outputs', () => {
      assert.strictEqual(taskContextValue(task(), hasFileOutputs(task())), 'task hasOutputs');
      assert.strictEqual(taskView(task(), { now: NOW, hasOutputs: true }).contextValue, 'task hasOutputs');
      assert.strictEqual(taskContextValue(task({ status: 'FAILED' }), true), 'task failedTask', 'only a completed task offers its outputs; a failed one its logs');
      assert.strictEqual(taskContextValue(task({ status: 'FAILED', batch: true, execution_status: { failed: 2 } }), false), 'task batch hasFailedChildren hasRerunnableChildren');
      assert.strictEqual(taskContextValue(task({ batch: true, outputs: {} }), false), 'task batch');
      assert.strictEqual(taskContextValue(task(), false), 'task');
    });

    it('finds outputs nested in lists, and directories', () => {
      assert.strictEqual(hasFileOutputs({ outputs: { many: [[{ class: 'File', path: '567890abc9b0307bc0414999' }]] } }), true);
      assert.strictEqual(hasFileOutputs({ outputs: { dir: { class: 'Directory', path: '567890abc9b0307bc0414998', listing: [] } } }), true);
      assert.strictEqual(hasFileOutputs({ outputs: { s: 'text', n: null } as Record<string, unknown> }), false);
      assert.strictEqual(hasFileOutputs({}), false);
    });

    it('counts only outputs the copy can take: a path that is not a file ID does not (the copy rule)', () => {
      assert.strictEqual(hasFileOutputs({ outputs: { out: { class: 'File', path: 'abc' } } }), false);
      assert.strictEqual(hasFileOutputs({ outputs: { out: { class: 'File', path: '/data/out.txt' } } }), false);
      const outputs = { a: { class: 'File', path: '567890abc9b0307bc0414999' }, b: { class: 'File', path: 'nope' } };
      assert.strictEqual(hasFileOutputs({ outputs }), outputFileIds(outputs).length > 0);
    });
  });

  describe('tooltip', () => {
    it('lists ID, project, app, creator, times, duration, progress and price', () => {
      const text = taskTooltip(task(), NOW);
      for (const expected of [
        `ID: \`${ID}\``,
        'Project: rfranklin/my-project',
        'App: rfranklin/my-project/grep/5',
        'Created by: rfranklin',
        'Created: 2026-03-07 11:00 UTC (1 hour ago)',
        'Started: 2026-03-07 11:05 UTC (55 minutes ago)',
        'Ended: 2026-03-07 11:55 UTC (5 minutes ago)',
        'Duration: 50 min',
        'Progress: 3 of 3 steps',
        'Price: $0.02',
      ]) {
        assert.ok(text.includes(expected), `tooltip has "${expected}":\n${text}`);
      }
      assert.ok(!text.includes('Errors'));
    });

    it('shows errors and warnings when there are any, escaped', () => {
      const text = taskTooltip(task({ status: 'FAILED', errors: [{ message: 'Job failed with exit code 137', code: 4 }, '*bold*'], warnings: ['disk <90%'] }), NOW);
      assert.match(text, /\*\*Errors \(2\)\*\*/);
      assert.match(text, /Job failed with exit code 137 \\\(code 4\\\)/);
      assert.ok(text.includes('\\*bold\\*'));
      assert.match(text, /\*\*Warnings \(1\)\*\*/);
      assert.ok(text.includes('disk \\<90%'));
    });

    it('measures a running task so far when the platform gives no duration', () => {
      const text = taskTooltip(task({ status: 'RUNNING', end_time: undefined, execution_status: { steps_completed: 1, steps_total: 4 } }), NOW);
      assert.match(text, /Duration: 55 min so far/);
      assert.match(text, /Progress: 1 of 4 steps/);
    });

    it('escapes Markdown in names', () => {
      assert.strictEqual(escapeMarkdown('a_b [x](y)'), 'a\\_b \\[x\\]\\(y\\)');
      assert.strictEqual(escapeMarkdown('~~x~~ $(error) a&amp;b'), '\\~\\~x\\~\\~ \\$\\(error\\) a\\&amp;b');
      assert.strictEqual(escapeMarkdown('one\n- two\r\n# three'), 'one - two \\# three');
      assert.ok(taskTooltip(task({ name: '[click](command:evil)' }), NOW).startsWith('**\\[click\\]\\(command:evil\\)**'));
    });
  });

  describe('groups and paging', () => {
    it('shows the count before a group is opened; an empty group does not expand', () => {
      assert.deepStrictEqual(
        { ...groupView('RUNNING', 1234), tooltip: undefined, ariaLabel: undefined },
        { label: 'Running', description: '1,234', icon: { id: 'sync', color: 'charts.blue' }, contextValue: 'taskGroup', expandable: true, tooltip: undefined, ariaLabel: undefined },
      );
      assert.strictEqual(groupView('FAILED', 0).expandable, false);
      assert.strictEqual(groupView('FAILED', undefined).description, '…');
      const failed = groupView('QUEUED', undefined, 'The platform did not answer in time.');
      assert.strictEqual(failed.description, 'count unavailable');
      assert.strictEqual(failed.expandable, true);
    });

    it('says how many are left to load', () => {
      assert.strictEqual(loadMoreLabel(230, false), 'Load more (230 left)');
      assert.strictEqual(loadMoreLabel(undefined, false), 'Load more');
      assert.strictEqual(loadMoreLabel(5, true), 'Loading more…');
    });
  });
});
