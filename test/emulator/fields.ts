/** The `fields` selector: `_all`, comma lists, `!name` exclusion, dotted paths. */
type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function getPath(src: Obj, path: string[]): { found: boolean; value?: unknown } {
  let cur: unknown = src;
  for (const key of path) {
    if (!isObj(cur) || !(key in cur)) {
      return { found: false };
    }
    cur = cur[key];
  }
  return { found: true, value: cur };
}

function setPath(dst: Obj, path: string[], value: unknown): void {
  let cur = dst;
  for (let i = 0; i < path.length - 1; i++) {
    const next = cur[path[i]];
    if (!isObj(next)) {
      cur[path[i]] = {};
    }
    cur = cur[path[i]] as Obj;
  }
  cur[path[path.length - 1]] = value;
}

function deletePath(dst: Obj, path: string[]): void {
  let cur: unknown = dst;
  for (let i = 0; i < path.length - 1; i++) {
    if (!isObj(cur)) {
      return;
    }
    cur = cur[path[i]];
  }
  if (isObj(cur)) {
    delete cur[path[path.length - 1]];
  }
}

/**
 * Apply a `fields` parameter to a full record.
 * - absent/empty: `defaults` (a list of top-level keys) or the full record when `defaults` is null;
 * - `_all`: the full record;
 * - `a,b.c`: exactly those paths (unknown ones are ignored);
 * - `!a`: removes a path; with exclusions only, the base is the full record.
 */
export function applyFields(full: Obj, fields: string | null, defaults: readonly string[] | null): Obj {
  const clone = (): Obj => JSON.parse(JSON.stringify(full)) as Obj;
  if (fields === null || fields.trim() === '') {
    if (!defaults) {
      return full;
    }
    const out: Obj = {};
    for (const k of defaults) {
      if (k in full) {
        out[k] = full[k];
      }
    }
    return out;
  }
  const parts = fields.split(',').map((p) => p.trim()).filter((p) => p.length > 0);
  const include = parts.filter((p) => !p.startsWith('!') && p !== '_all');
  const exclude = parts.filter((p) => p.startsWith('!')).map((p) => p.slice(1)).filter((p) => p.length > 0);
  const all = parts.includes('_all') || include.length === 0;
  let out: Obj;
  if (all) {
    out = clone();
  } else {
    out = {};
    for (const p of include) {
      const path = p.split('.');
      const got = getPath(full, path);
      if (got.found) {
        setPath(out, path, JSON.parse(JSON.stringify(got.value ?? null)));
      }
    }
  }
  for (const p of exclude) {
    deletePath(out, p.split('.'));
  }
  return out;
}
