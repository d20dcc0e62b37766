// The paths of the `sevenbridges:` file system: `/<owner>/<project>/<folder…>/<name>`, a project's ID then the names
// down to the file, so that Compare, Copy Path and the breadcrumbs read as the platform's own layout. No `vscode`.

export const REMOTE_SCHEME = 'sevenbridges';

/** A place on the platform: a project, and the names of the folders (and file) below its root. */
export interface RemotePath {
  /** `owner/project`. */
  project: string;
  names: string[];
}

export function formatRemotePath(path: RemotePath): string {
  return `/${[path.project, ...path.names].join('/')}`;
}

/** The place a path names; undefined when it names no project (fewer than two parts, an empty one, `.` or `..`). */
export function parseRemotePath(path: string): RemotePath | undefined {
  const parts = path.replace(/^\/+|\/+$/g, '').split('/');
  if (parts.length < 2 || parts.some((p) => p === '' || p === '.' || p === '..')) return undefined;
  return { project: `${parts[0]}/${parts[1]}`, names: parts.slice(2) };
}

/** The path of the folder holding it; undefined for a project's root. */
export function parentPath(path: RemotePath): RemotePath | undefined {
  return path.names.length ? { project: path.project, names: path.names.slice(0, -1) } : undefined;
}

/**
 * How a `sevenbridges:` URI reads its file, by its query: no query, the file's own bytes, whole (what copies, drags
 * and every other reader get); `?head`, the first 1 MB of its text (what a click on a large file opens: not all of the
 * file, so never to be saved as it); `?inflated`, a `.gz`'s text decompressed. An older version's `?whole` is the file.
 */
export type ReadForm = 'file' | 'head' | 'inflated';

export function readFormOf(query: string): ReadForm {
  return query === 'head' || query === 'inflated' ? query : 'file';
}

/** The query of a form (none for the file itself). */
export function formQuery(form: ReadForm): string {
  return form === 'file' ? '' : form;
}
