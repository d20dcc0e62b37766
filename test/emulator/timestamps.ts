/** The three timestamp forms the task filters accept; anything else is refused. */
import { badRequest } from './errors';

const FORMS = [
  /^(\d{4})-(\d{2})-(\d{2})$/,
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/,
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})([+-])(\d{2}):(\d{2})$/,
];

/** Parse a filter timestamp into epoch ms (UTC); throws a 400 ApiError when it is not one of the three forms. */
export function parseFilterTime(name: string, raw: string): number {
  for (const re of FORMS) {
    const m = re.exec(raw);
    if (!m) {
      continue;
    }
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const [h, mi, s] = m[4] !== undefined ? [Number(m[4]), Number(m[5]), Number(m[6])] : [0, 0, 0];
    let offsetMin = 0;
    if (m[7] !== undefined) {
      const oh = Number(m[8]);
      const om = Number(m[9]);
      if (oh > 14 || om > 59) {
        break;
      }
      offsetMin = (m[7] === '+' ? 1 : -1) * (oh * 60 + om);
    }
    if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) {
      break;
    }
    const ms = Date.UTC(y, mo - 1, d, h, mi, s);
    if (new Date(ms).getUTCDate() !== d) {
      break;
    }
    return ms - offsetMin * 60_000;
  }
  throw badRequest(
    `Invalid value '${raw}' for parameter '${name}'. Use yyyy-MM-ddTHH:mm:ss±HH:mm, yyyy-MM-ddTHH:mm:ss or yyyy-MM-dd.`,
  );
}
