import { Inject, Injectable } from '@nestjs/common';
import type { AppDb } from '../../database.js';
import { APP_DB } from '../../tokens.js';
import { KnowledgeExamplesRepository } from './examples.repository.js';
import { KnowledgeGlossaryRepository } from './glossary.repository.js';
import { KnowledgeInstructionsRepository } from './instructions.repository.js';
import { KnowledgeLearningsRepository } from './learnings.repository.js';
import { KnowledgeTableNotesRepository } from './table-notes.repository.js';

/** The five knowledge repositories over one database handle (the app's, or a transaction's). */
export class KnowledgeRepositories {
  readonly instructions: KnowledgeInstructionsRepository;
  readonly glossary: KnowledgeGlossaryRepository;
  readonly tables: KnowledgeTableNotesRepository;
  readonly examples: KnowledgeExamplesRepository;
  readonly learnings: KnowledgeLearningsRepository;

  constructor(db: AppDb) {
    this.instructions = new KnowledgeInstructionsRepository(db);
    this.glossary = new KnowledgeGlossaryRepository(db);
    this.tables = new KnowledgeTableNotesRepository(db);
    this.examples = new KnowledgeExamplesRepository(db);
    this.learnings = new KnowledgeLearningsRepository(db);
  }
}

/**
 * A connection's knowledge in app storage. Rows are addressed by connection id: the caller has checked that the
 * connection belongs to the user (KnowledgeService does, on every call).
 */
@Injectable()
export class KnowledgeStore extends KnowledgeRepositories {
  constructor(@Inject(APP_DB) private readonly db: AppDb) {
    super(db);
  }

  /** Runs `work` in one transaction: all of its writes land, or none. */
  transaction<T>(work: (repositories: KnowledgeRepositories) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new KnowledgeRepositories(trx)));
  }
}
