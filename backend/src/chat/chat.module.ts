import { Module } from '@nestjs/common';
import { AgentService } from '../agent/agent.service.js';
import { ReviewService } from '../agent/review/review.service.js';
import { ConnectionsModule } from '../connections/connections.module.js';
import { LlmModule } from '../llm/llm.module.js';
import { ChatController } from './chat.controller.js';
import { MessageStreamService } from './message-stream.service.js';
import { ReviewTurnsService } from './review-turns.service.js';
import { ModelsController } from './models.controller.js';
import { ThreadsService } from './threads.service.js';
import { TurnLeases } from './turn-leases.js';

@Module({
  imports: [ConnectionsModule, LlmModule],
  controllers: [ChatController, ModelsController],
  providers: [AgentService, ReviewService, ReviewTurnsService, ThreadsService, MessageStreamService, TurnLeases],
})
export class ChatModule {}
