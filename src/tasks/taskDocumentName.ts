// The names a task document may have (`<name>.sbtask.yaml`, or `.yml`): its language features register for them, and
// for untitled documents of such a name. Apart from taskDocument.ts so that what runs at the start reads no YAML.

export const TASK_DOCUMENT_GLOB = '**/*.sbtask.{yaml,yml}';
export const isTaskDocumentName = (path: string): boolean => /\.sbtask\.ya?ml$/i.test(path);
