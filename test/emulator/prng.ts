/** Small deterministic PRNG (mulberry32) plus helpers for seeded data and faults. */
import { createHash } from 'crypto';

export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = (seed >>> 0) ^ 0x9e3779b9;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length) {
      out += Math.floor(this.next() * 0x10000).toString(16).padStart(4, '0');
    }
    return out.slice(0, length);
  }

  /** RFC 4122 version-4 shaped UUID. */
  uuid(): string {
    const h = this.hex(32).split('');
    h[12] = '4';
    h[16] = '89ab'[parseInt(h[16], 16) & 3];
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}

/** `YYYY-MM-DDTHH:MM:SSZ` */
export function isoZ(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19) + 'Z';
}

/** A 32-bit seed drawn from a text (a task ID, say): stable, and independent of any PRNG's stream. */
export function seedOf(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}
