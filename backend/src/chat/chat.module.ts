import { Module } from '@nestjs/common';
import { AgentModule } from '../agent/agent.module.js';
import { ConnectionsModule } from '../connections/connections.module.js';
import { KnowledgeModule } from '../knowledge/knowledge.module.js';
import { LlmModule } from '../llm/llm.module.js';
import { ChatController } from './chat.controller.js';
import { MessageStreamService } from './message-stream.service.js';
import { SaveExampleController } from './save-example.controller.js';
import { SaveExampleService } from './save-example.service.js';
import { ThreadsService } from './threads.service.js';
import { TurnLeases } from './turn-leases.js';

@Module({
  imports: [AgentModule, ConnectionsModule, LlmModule, KnowledgeModule],
  controllers: [ChatController, SaveExampleController],
  providers: [ThreadsService, MessageStreamService, TurnLeases, SaveExampleService],
})
export class ChatModule {}
