import type { AppDb } from './database.js';

/** Rows one sweep statement deletes at most: a large backlog never holds the storage (SQLite's one writer) for long. */
export const SWEEP_BATCH = 5_000;

/**
 * Runs `deleteBatch(limit)` until it deletes fewer than `limit` rows, yielding to the event loop between
 * batches; returns how many rows went.
 */
export async function deleteInBatches(deleteBatch: (limit: number) => Promise<bigint | number | undefined>, limit = SWEEP_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = Number((await deleteBatch(limit)) ?? 0);
    total += deleted;
    if (deleted < limit) return total;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Deletes a throttling table's rows created before `beforeIso`, in batches; returns how many went. */
export function deleteCreatedBefore(db: AppDb, table: 'login_failures' | 'registration_attempts', beforeIso: string, limit = SWEEP_BATCH): Promise<number> {
  return deleteInBatches(
    async (n) =>
      (
        await db
          .deleteFrom(table)
          .where('id', 'in', (eb) => eb.selectFrom(table).select('id').where('created_at', '<', beforeIso).limit(n))
          .executeTakeFirst()
      ).numDeletedRows,
    limit,
  );
}
