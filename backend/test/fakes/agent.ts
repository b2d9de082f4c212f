import type { ReviewProposal, ThreadMessage, ThreadState } from '@aigis/contracts';
import type { AgentFacade, ThreadSettings } from '../../src/agent/agent.facade.js';

/** The agent facade's thread settings in memory: what each thread's graph state would hold. */
export class FakeAgentFacade implements Pick<AgentFacade, 'saveSettings' | 'conversation' | 'threadState' | 'deleteThread'> {
  readonly settings = new Map<string, ThreadSettings>();
  readonly deleted: string[] = [];

  async saveSettings(threadId: string, settings: ThreadSettings): Promise<void> {
    this.settings.set(threadId, { ...this.settings.get(threadId), ...settings });
  }

  async conversation(): Promise<{ messages: ThreadMessage[]; pending_review: ReviewProposal | null }> {
    return { messages: [], pending_review: null };
  }

  async threadState(threadId: string): Promise<ThreadState> {
    // The settings as the graph state holds them once applied (no reducer markers here).
    const s = (this.settings.get(threadId) ?? {}) as Partial<Pick<ThreadState, 'model_name' | 'db_schema' | 'connection'>>;
    return { messages: [], model_name: s.model_name ?? null, db_schema: s.db_schema ?? null, connection: s.connection ?? null, sql_result: null, pending_review: null };
  }

  async deleteThread(threadId: string): Promise<void> {
    this.settings.delete(threadId);
    this.deleted.push(threadId);
  }
}
