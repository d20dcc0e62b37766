// How each task status looks (its words and its icon): the one table the rows, the group rows, the status
// filter and its picks read. No `vscode` import.

import * as l10n from '@vscode/l10n';
import { TASK_STATUSES, type TaskStatus } from '../api/types';
import type { IconSpec } from '../ui/rowView';

export interface StatusLook {
  label: string;
  icon: IconSpec;
  /** For transitional and unknown statuses: what it means. */
  note?: string;
}

/** A look whose words are read from the l10n bundle each time they are shown (not when this module loads). */
function look(label: () => string, icon: IconSpec, note?: () => string): StatusLook {
  return {
    get label() { return label(); },
    icon,
    ...(note ? { get note() { return note(); } } : {}),
  };
}

const LOOKS: Record<string, StatusLook> = {
  RUNNING: look(() => l10n.t({ message: 'Running', comment: ['A task status'] }), { id: 'sync~spin', color: 'charts.blue' }),
  QUEUED: look(() => l10n.t({ message: 'Queued', comment: ['A task status'] }), { id: 'clock', color: 'charts.yellow' }),
  DRAFT: look(() => l10n.t({ message: 'Draft', comment: ['A task status'] }), { id: 'edit' }),
  COMPLETED: look(() => l10n.t({ message: 'Completed', comment: ['A task status'] }), { id: 'pass', color: 'testing.iconPassed' }),
  FAILED: look(() => l10n.t({ message: 'Failed', comment: ['A task status'] }), { id: 'error', color: 'testing.iconFailed' }),
  ABORTED: look(() => l10n.t({ message: 'Aborted', comment: ['A task status'] }), { id: 'circle-slash', color: 'disabledForeground' }),
  CREATING: look(
    () => l10n.t({ message: 'Creating', comment: ['A task status'] }),
    { id: 'loading~spin', color: 'charts.yellow' },
    () => l10n.t('Creating (a batch parent still making its children; moving to Queued/Running)'),
  ),
  ABORTING: look(
    () => l10n.t({ message: 'Aborting', comment: ['A task status'] }),
    { id: 'loading~spin', color: 'testing.iconFailed' },
    () => l10n.t('Aborting (moving to Aborted)'),
  ),
};

/** The words of the six statuses a filter can name (getters: each read from the bundle when shown). */
export const STATUS_LABELS = Object.defineProperties(
  {},
  Object.fromEntries(TASK_STATUSES.map((s) => [s, { get: () => LOOKS[s].label, enumerable: true }])),
) as Record<TaskStatus, string>;

/** The look of any status a record may carry, including ones this version does not know. */
export function statusLook(status: string | undefined): StatusLook {
  if (status && LOOKS[status]) return LOOKS[status];
  if (!status) return { label: l10n.t({ message: 'Unknown', comment: ['A task status the platform did not give'] }), icon: { id: 'question' }, note: l10n.t('No status given') };
  const shown = status.charAt(0) + status.slice(1).toLowerCase();
  return { label: shown, icon: { id: 'question' }, note: l10n.t('Status "{0}" (not known to this extension)', status) };
}

/** A group's icon: its status's, standing still (a whole group does not spin). */
export function groupIcon(status: TaskStatus): IconSpec {
  const icon = LOOKS[status].icon;
  return { ...icon, id: icon.id.replace(/~spin$/, '') };
}
