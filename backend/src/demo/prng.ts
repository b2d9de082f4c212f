/**
 * mulberry32: a 32-bit generator, tiny and fast, good enough for synthetic data.
 * The same seed always yields the same stream, on every platform (integer math only).
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a followed by a murmur3 finaliser, so nearby labels give unrelated seeds. */
function hashLabel(seed: number, label: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < label.length; i++) {
    h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** Seeded random helpers on top of mulberry32. */
export class Rng {
  private readonly next: () => number;

  constructor(readonly seed: number) {
    this.next = mulberry32(seed);
  }

  /**
   * An independent stream named by `label`: each part of a generator takes its own fork, so changing
   * how many draws one part makes does not reshuffle the others.
   */
  fork(label: string): Rng {
    return new Rng(hashLabel(this.seed, label));
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next();
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One item, with probability proportional to its weight (linear scan: for short lists). */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i]!;
      if (r < 0) return items[i]!;
    }
    return items[items.length - 1]!;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next(); // (0, 1], keeps log finite
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Poisson-distributed count (Knuth); fine for the small means used here (< 100). */
  poisson(mean: number): number {
    const limit = Math.exp(-mean);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k++;
      p *= this.next();
    }
    return k;
  }
}

/** Weighted choice among many items, many times: cumulative weights + binary search. */
export class WeightedPicker<T> {
  private readonly cumulative: number[] = [];
  private readonly total: number;

  constructor(
    private readonly items: readonly T[],
    weights: readonly number[],
  ) {
    let sum = 0;
    for (const w of weights) {
      sum += w;
      this.cumulative.push(sum);
    }
    this.total = sum;
  }

  get size(): number {
    return this.items.length;
  }

  pick(rng: Rng): T {
    const r = rng.float() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! > r) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo]!;
  }
}
