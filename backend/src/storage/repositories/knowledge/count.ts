import type { SelectQueryBuilder } from 'kysely';

/** COUNT(*) of a filtered query, as a number on both storages (PostgreSQL returns a bigint string). */
export async function countOf<DB, TB extends keyof DB>(query: SelectQueryBuilder<DB, TB, object>): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number((row as { n: number | string }).n);
}
