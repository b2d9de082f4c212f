import { Module } from '@nestjs/common';
import { ConnectionsModule } from '../connections/connections.module.js';
import { QueryModule } from '../query/query.module.js';
import { ExamplesService } from './examples.service.js';
import { KnowledgeTransferService } from './knowledge-transfer.service.js';
import { KnowledgeController } from './knowledge.controller.js';
import { KnowledgeContext } from './knowledge-context.service.js';
import { KnowledgePolicy } from './knowledge-policy.service.js';
import { KnowledgeService } from './knowledge.service.js';
import { LearningsService } from './learnings.service.js';
import { ExampleRetrieval } from './retrieval/example-retrieval.service.js';

/** A connection's knowledge: its API, and what the agent reads from it (see KnowledgeContext). */
@Module({
  imports: [ConnectionsModule, QueryModule],
  controllers: [KnowledgeController],
  providers: [KnowledgeService, ExamplesService, LearningsService, KnowledgeTransferService, ExampleRetrieval, KnowledgeContext, KnowledgePolicy],
  exports: [KnowledgeService, ExamplesService, LearningsService, ExampleRetrieval, KnowledgeContext],
})
export class KnowledgeModule {}
