import { Module } from '@nestjs/common';
import { ConnectionsModule } from '../connections/connections.module.js';
import { KnowledgeModule } from '../knowledge/knowledge.module.js';
import { LlmModule } from '../llm/llm.module.js';
import { QueryModule } from '../query/query.module.js';
import { AgentFacade } from './agent.facade.js';
import { AgentService } from './agent.service.js';
import { ReviewService } from './review/review.service.js';
import { ThreadReviews } from './review/thread-reviews.js';

/** The LangGraph agent (graph, checkpoints, tools, review before run); the chat module sees only AgentFacade. */
@Module({
  imports: [ConnectionsModule, QueryModule, LlmModule, KnowledgeModule],
  providers: [AgentService, ReviewService, ThreadReviews, AgentFacade],
  exports: [AgentFacade],
})
export class AgentModule {}
