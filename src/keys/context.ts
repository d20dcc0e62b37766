// The context keys the extension sets for package.json's when-clauses, with the type of each one's value.
// Only src/ui/whenContext.ts sets them (test/unit/keys/context.test.ts keeps this list and the when-clauses equal).

export interface ContextValues {
  /** A token is known for the endpoint in use. */
  'sevenbridges.signedIn': boolean;
  /** The platform of the endpoint in use: a platform ID of api/endpoint.ts, or 'custom'. */
  'sevenbridges.platform': string;
  /** The Tasks view shows a filtered list (swaps in the Clear Task Filters button). */
  'sevenbridges.tasks.filtered': boolean;
  /** Projects & Files shows what Find Files found (swaps in the Clear Find button). */
  'sevenbridges.files.found': boolean;
}

export type ContextKey = keyof ContextValues;

export const CONTEXT_KEYS = {
  signedIn: 'sevenbridges.signedIn',
  platform: 'sevenbridges.platform',
  tasksFiltered: 'sevenbridges.tasks.filtered',
  filesFound: 'sevenbridges.files.found',
} as const satisfies Record<string, ContextKey>;
