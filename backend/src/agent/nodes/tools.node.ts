import type { ToolMessage } from '@langchain/core/messages';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { ToolResultContent } from '@aigis/contracts';
import { describeIssues } from '../../common/zod.js';
import { turnBudgetOf } from '../../limits/turn-budget.js';
import type { ToolStreamEvent } from '../events.js';
import type { AigisStateType, AigisStateUpdate } from '../state.js';
import { isDirectSqlTurn, unansweredCalls } from '../tool-calls.js';
import { type AgentTool, toolError, toolMessage, type ToolOutcome, type ToolRunContext } from '../tools/agent-tool.js';
import { INVALID_ARGUMENTS_KEY } from './assistant.node.js';

/**
 * Runs the unanswered tool calls of the last assistant message in order. A call to an unknown tool or with
 * malformed arguments is answered with a correction the model can act on, never a crash; calls
 * beyond the turn's budget (per message, per turn) are answered with a RATE_LIMITED tool error. A call whose
 * query must be reviewed first stops the node: the review node asks, and the calls after it run once it is decided.
 * The call of a `SQL:` message runs its statement as written (`direct`), through the same tool.
 */
export function toolsNode(tools: AgentTool[], direct: DirectSql) {
  const byName = new Map(tools.map((t) => [t.name, t]));
  return async (state: AigisStateType, config: LangGraphRunnableConfig): Promise<AigisStateUpdate> => {
    const calls = unansweredCalls(state.messages);
    const directTurn = isDirectSqlTurn(state.messages);
    const threadId = String(config.configurable?.thread_id ?? '');
    const messages: ToolMessage[] = [];
    let current = state;
    let update: AigisStateUpdate = {};
    const emit = (event: ToolStreamEvent) => config.writer?.(event);
    const budget = turnBudgetOf(config);
    const admitted = budget ? budget.admitToolCalls(calls) : { run: calls, refused: [] };
    const refusals = new Map(admitted.refused.map((r) => [r.call, r.message]));
    for (const call of calls) {
      config.signal?.throwIfAborted();
      const id = call.id!;
      const invalid = call.args?.[INVALID_ARGUMENTS_KEY] !== undefined;
      emit({ type: 'tool_call', data: { id, name: call.name, args: invalid ? {} : call.args } });
      const refusal = refusals.get(call);
      const context: ToolRunContext = { state: current, config, threadId, toolCallId: id, signal: config.signal };
      const outcome = refusal
        ? toolError('RATE_LIMITED', refusal)
        : directTurn
          ? await direct.runStatement(String(call.args?.sql ?? ''), context)
          : await runOne(byName, call.name, call.args, invalid, context);
      if (outcome.pause) {
        update = { ...update, pending_review: outcome.pause };
        break;
      }
      emit({ type: 'tool_result', data: { id, name: call.name, content: outcome.result satisfies ToolResultContent } });
      messages.push(toolMessage(id, call.name, outcome));
      if (outcome.update) {
        update = { ...update, ...outcome.update };
        // A later call in the same turn (ask_analyst after ask_database) sees the new result.
        current = { ...current, ...(outcome.update as Partial<AigisStateType>) };
      }
    }
    // Always written: a proposal left over from a turn that ended otherwise (stopped) must not pause this one.
    return { pending_review: null, ...update, messages };
  };
}

/** Runs a `SQL:` message's statement (the ask_database tool's direct path). */
export interface DirectSql {
  runStatement(sql: string, context: ToolRunContext): Promise<ToolOutcome>;
}

async function runOne(
  byName: Map<string, AgentTool>,
  name: string,
  args: Record<string, unknown>,
  invalid: boolean,
  context: Parameters<AgentTool['run']>[1],
): Promise<ToolOutcome> {
  const tool = byName.get(name);
  if (!tool) {
    return toolError('UNKNOWN_TOOL', `There is no tool named "${name}". Available tools: ${[...byName.keys()].join(', ')}.`);
  }
  if (invalid) {
    return toolError(
      'INVALID_TOOL_ARGUMENTS',
      `The arguments for ${name} were not valid JSON (${String(args.error)}). Call ${name} again with a JSON object like {"${Object.keys(tool.schema.shape)[0]}": "…"}.`,
    );
  }
  const parsed = tool.schema.safeParse(args ?? {});
  if (!parsed.success) {
    return toolError('INVALID_TOOL_ARGUMENTS', `The arguments for ${name} are wrong: ${describeIssues(parsed.error)}. Call it again with the right arguments.`);
  }
  return tool.run(parsed.data, context);
}
