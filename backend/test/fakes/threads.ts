import type { Updateable } from 'kysely';
import type { ThreadsRepository } from '../../src/storage/repositories/threads.repository.js';
import type { ThreadsTable } from '../../src/storage/schema.js';
import type { Public } from './fake.js';

/** Thread rows in memory, owner-scoped like the repository. */
export class FakeThreadsRepository implements Public<ThreadsRepository> {
  readonly rows: ThreadsTable[] = [];

  async listByUser(userId: string) {
    return this.rows.filter((r) => r.user_id === userId).sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  }

  async findOwned(userId: string, id: string) {
    const row = this.rows.find((r) => r.user_id === userId && r.id === id);
    return row && { ...row };
  }

  async insert(row: ThreadsTable) {
    this.rows.push({ ...row });
  }

  async update(userId: string, id: string, patch: Updateable<ThreadsTable>) {
    const row = this.rows.find((r) => r.user_id === userId && r.id === id);
    if (row) Object.assign(row, patch);
    return row !== undefined;
  }

  async delete(userId: string, id: string) {
    const index = this.rows.findIndex((r) => r.user_id === userId && r.id === id);
    if (index >= 0) this.rows.splice(index, 1);
    return index >= 0;
  }
}
