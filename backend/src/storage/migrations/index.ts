import type { Migration, MigrationProvider } from 'kysely/migration';
import * as m0001 from './0001_initial.js';
import * as m0002 from './0002_connection_allowed_functions.js';
import * as m0003 from './0003_connection_tls_and_privileges.js';
import * as m0004 from './0004_accounts.js';
import * as m0005 from './0005_review.js';
import * as m0008 from './0008_thread_turns.js';
import * as m0011 from './0011_knowledge.js';
import * as m0009 from './0009_model_scores.js';
import * as m0012 from './0012_connection_policy.js';
import * as m0014 from './0014_knowledge_examples_revision.js';

/** Migrations are imported statically so they work the same from source (tests) and from dist. */
export const migrationProvider: MigrationProvider = {
  async getMigrations(): Promise<Record<string, Migration>> {
    return {
      '0001_initial': m0001,
      '0002_connection_allowed_functions': m0002,
      '0003_connection_tls_and_privileges': m0003,
      '0004_accounts': m0004,
      '0005_review': m0005,
      '0008_thread_turns': m0008,
      '0011_knowledge': m0011,
      '0009_model_scores': m0009,
      '0012_connection_policy': m0012,
      '0014_knowledge_examples_revision': m0014,
    };
  },
};
