import { Clock } from '../../src/common/clock.js';

/** The real Clock with a hand on it: time stands still until a test moves it. */
export class FakeClock extends Clock {
  constructor(private current = new Date('2026-01-01T00:00:00.000Z')) {
    super();
  }

  override now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
