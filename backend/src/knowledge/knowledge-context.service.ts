import { Inject, Injectable } from '@nestjs/common';
import type { TableNote } from '@aigis/contracts';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { KnowledgeStore } from '../storage/repositories/knowledge/knowledge-store.js';
import { toGlossaryEntry, toLearning, toTableNote } from './knowledge-rows.js';
import { examplesBlock, notesBlock } from './knowledge-prompt.js';
import { KnowledgePolicy, learningTableShown } from './knowledge-policy.service.js';
import { ExampleRetrieval } from './retrieval/example-retrieval.service.js';

/**
 * What the agent's prompts get of a connection's knowledge, as the user who owns the connection: nothing that
 * names a table the connection's policy hides (KnowledgePolicy).
 */
@Injectable()
export class KnowledgeContext {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly store: KnowledgeStore,
    private readonly retrieval: ExampleRetrieval,
    private readonly policy: KnowledgePolicy,
  ) {}

  /**
   * Instructions, glossary and the top learnings as one bounded block; null when there are none. Table and column
   * notes are not in it: the schema shows them with their tables (tableNotes), so no note is said twice, and a note
   * on a table the schema hides never reaches a prompt.
   */
  async notes(userId: string, connectionId: string): Promise<string | null> {
    const [instructions, glossary, learnings, filter] = await Promise.all([
      this.store.instructions.find(connectionId),
      this.store.glossary.list(connectionId),
      this.config.KNOWLEDGE_PROMPT_LEARNINGS > 0 ? this.store.learnings.list(connectionId, this.config.KNOWLEDGE_PROMPT_LEARNINGS) : Promise.resolve([]),
      this.policy.filterFor(userId, connectionId),
    ]);
    const shownSql = (sql: string | null) => (sql === null ? Promise.resolve(true) : filter.sqlShown(sql));
    return notesBlock(
      {
        instructions: instructions?.text ?? '',
        glossary: await keep(glossary.map(toGlossaryEntry), (e) => shownSql(e.sql)),
        learnings: await keep(learnings.map(toLearning), async (l) => l.tables.every((t) => learningTableShown(filter, t)) && (await filter.sqlRuns(l.working_sql)) && (await shownSql(l.failed_sql))),
      },
      this.config.KNOWLEDGE_PROMPT_BUDGET,
    );
  }

  /** The owner's table and column notes, for the schema the prompts show (matched to its visible tables) and describe_table. */
  async tableNotes(connectionId: string): Promise<TableNote[]> {
    return (await this.store.tables.list(connectionId)).map(toTableNote);
  }

  /** The KNOWLEDGE_EXAMPLES_K examples most similar to the question that the table policy lets through, bounded; null when none. */
  async examples(userId: string, connectionId: string, question: string): Promise<string | null> {
    const k = this.config.KNOWLEDGE_EXAMPLES_K;
    const [ranked, filter] = await Promise.all([this.retrieval.retrieveExamples(connectionId, question, k * 2), this.policy.filterFor(userId, connectionId)]);
    const shown = await keep(ranked.map((r) => r.example), (e) => filter.sqlShown(e.sql));
    return examplesBlock(shown.slice(0, k), this.config.KNOWLEDGE_EXAMPLES_BUDGET);
  }
}

async function keep<T>(items: T[], shown: (item: T) => Promise<boolean>): Promise<T[]> {
  const verdicts = await Promise.all(items.map(shown));
  return items.filter((_, i) => verdicts[i]);
}

