// The shapes of the platform's identifiers (API contract §2).

const TASK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FILE_ID = /^[0-9a-f]{24}$/i;
const PROJECT_ID = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const JOB_ID = /^\d{1,30}$/;

export const isTaskId = (value: string): boolean => TASK_ID.test(value);
export const isFileId = (value: string): boolean => FILE_ID.test(value);
/** `owner/short-name`; a part made only of dots is refused (`projects/../..` would leave the projects path). */
export const isProjectId = (value: string): boolean => PROJECT_ID.test(value) && !value.split('/').some((part) => /^\.+$/.test(part));
export const isJobId = (value: string): boolean => JOB_ID.test(value);

/** Every 24-hex-digit run in a text that stands alone (not part of a longer hex run). */
export function findFileIds(text: string): string[] {
  return text.match(/(?<![0-9a-f])[0-9a-f]{24}(?![0-9a-f])/gi)?.map((id) => id.toLowerCase()) ?? [];
}
