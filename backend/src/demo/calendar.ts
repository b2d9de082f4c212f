/**
 * Calendar arithmetic on day numbers (days since 1970-01-01, UTC), so generated dates never depend on
 * the machine's time zone or clock.
 */
const MS_PER_DAY = 86_400_000;

export function dayNumber(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) / MS_PER_DAY;
}

/** `YYYY-MM-DD`, the form every date column of the demo store uses. */
export function formatDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

export interface DayParts {
  year: number;
  /** 1–12 */
  month: number;
  /** 1–31 */
  dayOfMonth: number;
  /** 0 = Sunday … 6 = Saturday, as SQLite's strftime('%w'). */
  weekday: number;
}

export function dayParts(day: number): DayParts {
  const d = new Date(day * MS_PER_DAY);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, dayOfMonth: d.getUTCDate(), weekday: d.getUTCDay() };
}

/** US Thanksgiving: the fourth Thursday of November (Black Friday is the day after). */
export function thanksgiving(year: number): number {
  const first = dayNumber(year, 11, 1);
  const firstThursday = first + ((4 - dayParts(first).weekday + 7) % 7);
  return firstThursday + 21;
}
