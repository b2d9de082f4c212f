import { learningSchema, type Learning, type LearningInput } from '@aigis/contracts';
import { isAppError } from '../../common/app-error.js';
import { type AgentTool, toolError } from './agent-tool.js';

export interface SaveLearningDeps {
  /** LearningsService.record: refuses a working SQL that did not run successfully in this thread; a repeat raises the confidence. */
  record(userId: string, connectionId: string, threadId: string, input: LearningInput): Promise<{ learning: Learning; repeated: boolean }>;
}

/**
 * The agent records what it learned after a query failed and a corrected one worked. The arguments are checked
 * with the API's own schema (bounded lesson, tables and SQL); the service checks the working SQL against the audit
 * log, so a lesson steered by database text cannot vouch for a query that never ran.
 */
export function saveLearningTool(deps: SaveLearningDeps): AgentTool<typeof learningSchema> {
  return {
    name: 'save_learning',
    description:
      'Records a reusable correction for this database after a query failed and a corrected one worked: the category, the tables, the failed SQL, the working SQL exactly as it ran in this conversation, and the lesson in one or two sentences. A repeat raises its confidence.',
    schema: learningSchema,
    async run(input, context) {
      const { connection } = context.state;
      if (!connection) return toolError('NO_CONNECTION', 'No database is connected to this conversation, so there is nothing to learn about.');
      try {
        const { learning, repeated } = await deps.record(connection.user_id, connection.connection_id, context.threadId, input);
        const text = repeated
          ? `Already known: this learning was recorded before; its confidence is now ${learning.confidence}.`
          : 'Recorded: the learning is saved for this connection (its owner can review it on the Knowledge page).';
        return { content: text, result: { type: 'text', text } };
      } catch (error) {
        if (isAppError(error)) return toolError(error.code, error.message);
        throw error;
      }
    },
  };
}
