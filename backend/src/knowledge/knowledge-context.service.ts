import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { KnowledgeStore } from '../storage/repositories/knowledge/knowledge-store.js';
import { toGlossaryEntry, toLearning, toTableNote } from './knowledge-rows.js';
import { examplesBlock, notesBlock } from './knowledge-prompt.js';
import { ExampleRetrieval } from './retrieval/example-retrieval.service.js';

/**
 * What the agent's prompts get of a connection's knowledge. Addressed by connection id: the agent has checked that
 * the thread's connection is the user's (it reads the connection as the user first).
 */
@Injectable()
export class KnowledgeContext {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly store: KnowledgeStore,
    private readonly retrieval: ExampleRetrieval,
  ) {}

  /** Instructions, glossary, table notes and the top learnings as one bounded block; null when there are none. */
  async notes(connectionId: string): Promise<string | null> {
    const [instructions, glossary, tables, learnings] = await Promise.all([
      this.store.instructions.find(connectionId),
      this.store.glossary.list(connectionId),
      this.store.tables.list(connectionId),
      this.config.KNOWLEDGE_PROMPT_LEARNINGS > 0 ? this.store.learnings.list(connectionId, this.config.KNOWLEDGE_PROMPT_LEARNINGS) : Promise.resolve([]),
    ]);
    return notesBlock(
      { instructions: instructions?.text ?? '', glossary: glossary.map(toGlossaryEntry), tables: tables.map(toTableNote), learnings: learnings.map(toLearning) },
      this.config.KNOWLEDGE_PROMPT_BUDGET,
    );
  }

  /** The KNOWLEDGE_EXAMPLES_K examples most similar to the question, bounded; null when none. */
  async examples(connectionId: string, question: string): Promise<string | null> {
    const ranked = await this.retrieval.retrieveExamples(connectionId, question, this.config.KNOWLEDGE_EXAMPLES_K);
    return examplesBlock(ranked.map((r) => r.example), this.config.KNOWLEDGE_EXAMPLES_BUDGET);
  }
}
