// The shapes of the platform's identifiers (API platform-api.md §2), and what a person is told when a value is not one.
import * as l10n from '@vscode/l10n';

const TASK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FILE_ID = /^[0-9a-f]{24}$/i;
const PROJECT_ID = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const JOB_ID = /^\d{1,30}$/;
/** `owner/project/app` or `owner/project/app/revision` (platform-api.md §14.1: public apps use `-` too). */
const APP_ID = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+(\/\d+)?$/;

export const isTaskId = (value: string): boolean => TASK_ID.test(value);
export const isFileId = (value: string): boolean => FILE_ID.test(value);
/** `owner/short-name`; a part made only of dots is refused (`projects/../..` would leave the projects path). */
export const isProjectId = (value: string): boolean => PROJECT_ID.test(value) && !value.split('/').some((part) => /^\.+$/.test(part));
export const isJobId = (value: string): boolean => JOB_ID.test(value);
/** An app's ID, with or without its revision; a part made only of dots is refused, as for a project. */
export const isAppId = (value: string): boolean => APP_ID.test(value) && !value.split('/').some((part) => /^\.+$/.test(part));

export const notTaskId = (value: string): string => l10n.t('"{0}" is not a task ID (a UUID).', value);
export const notProjectId = (value: string): string => l10n.t('"{0}" is not a project ID (owner/project).', value);
export const notFolderId = (value: string): string => l10n.t('"{0}" is not a folder ID (24 hex digits).', value);
export const notFileId = (value: string): string => l10n.t('"{0}" is not a file ID (24 hex digits).', value);
export const notAppId = (value: string): string => l10n.t('"{0}" is not an app ID (owner/project/app, or owner/project/app/revision).', value);

/** Every 24-hex-digit run in a text that stands alone (not part of a longer hex run). */
export function findFileIds(text: string): string[] {
  return text.match(/(?<![0-9a-f])[0-9a-f]{24}(?![0-9a-f])/gi)?.map((id) => id.toLowerCase()) ?? [];
}
