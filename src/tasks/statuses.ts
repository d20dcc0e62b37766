// How each task status looks (its words and its icon): the one table the rows, the group rows, the status
// filter and its picks read. No `vscode` import.

import { TASK_STATUSES, type TaskStatus } from '../api/types';
import type { IconSpec } from '../ui/rowView';

export interface StatusLook {
  label: string;
  icon: IconSpec;
  /** For transitional and unknown statuses: what it means. */
  note?: string;
}

const LOOKS: Record<string, StatusLook> = {
  RUNNING: { label: 'Running', icon: { id: 'sync~spin', color: 'charts.blue' } },
  QUEUED: { label: 'Queued', icon: { id: 'clock', color: 'charts.yellow' } },
  DRAFT: { label: 'Draft', icon: { id: 'edit' } },
  COMPLETED: { label: 'Completed', icon: { id: 'pass', color: 'testing.iconPassed' } },
  FAILED: { label: 'Failed', icon: { id: 'error', color: 'testing.iconFailed' } },
  ABORTED: { label: 'Aborted', icon: { id: 'circle-slash', color: 'disabledForeground' } },
  CREATING: {
    label: 'Creating',
    icon: { id: 'loading~spin', color: 'charts.yellow' },
    note: 'Creating (a batch parent still making its children; moving to Queued/Running)',
  },
  ABORTING: {
    label: 'Aborting',
    icon: { id: 'loading~spin', color: 'testing.iconFailed' },
    note: 'Aborting (moving to Aborted)',
  },
};

/** The words of the six statuses a filter can name. */
export const STATUS_LABELS = Object.fromEntries(TASK_STATUSES.map((s) => [s, LOOKS[s].label])) as Record<TaskStatus, string>;

/** The look of any status a record may carry, including ones this version does not know. */
export function statusLook(status: string | undefined): StatusLook {
  if (status && LOOKS[status]) return LOOKS[status];
  const shown = status ? status.charAt(0) + status.slice(1).toLowerCase() : 'Unknown';
  return { label: shown, icon: { id: 'question' }, note: status ? `Status "${status}" (not known to this extension)` : 'No status given' };
}

/** A group's icon: its status's, standing still (a whole group does not spin). */
export function groupIcon(status: TaskStatus): IconSpec {
  const icon = LOOKS[status].icon;
  return { ...icon, id: icon.id.replace(/~spin$/, '') };
}
