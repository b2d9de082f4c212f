import type { ModelScore } from '@aigis/contracts';

/** A model's last accuracy run in a few words: "74% on defog, 2026-11-30" (the day in UTC, as the run recorded it). */
export function scoreLabel(score: ModelScore | null | undefined): string | null {
  if (!score || !Number.isFinite(score.score)) return null;
  const percent = Math.round(Math.min(1, Math.max(0, score.score)) * 100);
  const day = /^\d{4}-\d{2}-\d{2}/.exec(score.date)?.[0];
  return `${percent}% on ${score.benchmark}${day ? `, ${day}` : ''}`;
}
