import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { inferColumnTypes } from '../charts/column-types.js';
import { sanitizeSpec } from '../charts/spec-sanitizer.js';
import { fallbackSpec, injectData, validateSpec } from '../charts/vega-spec.js';
import type { ModelResolver } from '../model-resolver.js';
import { extractJsonObject } from '../model-output.js';
import { chartWriterPrompt } from '../prompts.js';
import { CHART_SAMPLE_EXCERPT, excerptRows } from '../result-excerpt.js';
import { lastResultRows } from '../stored-results.js';
import { type AgentTool, innerCallConfig, messageText, toolError, type ToolOutcome } from './agent-tool.js';

export const MAX_CHART_CORRECTIONS = 3;

const schema = z.object({
  request: z.string().min(1).describe('What to chart and how, e.g. "monthly revenue as a line chart".'),
});

/**
 * Charts the last query result. The model writes a Vega-Lite spec without data; the server injects the
 * rows and compiles it, feeds errors back, and after the last try draws a chart chosen from the column
 * types — so the result is always a spec that compiles.
 */
export function askAnalystTool(deps: { models: ModelResolver }): AgentTool<typeof schema> {
  return {
    name: 'ask_analyst',
    description: 'Draws a Vega-Lite chart of the LAST ask_database result. Call it after ask_database, with what to chart.',
    schema,
    async run({ request }, context): Promise<ToolOutcome> {
      const last = context.state.sql_result;
      const data = last && { ...last, rows: lastResultRows(context.state.messages, last) };
      if (!data || data.rows.length === 0) {
        return toolError('NO_DATA', data ? 'The last query returned no rows, so there is nothing to chart.' : 'There is no query result to chart yet: call ask_database first.');
      }
      const columns = inferColumnTypes(data.columns, data.rows);
      // The chart writer sees the column types and a short excerpt, never whole values (the server injects the data).
      const sample = excerptRows(data.columns, data.rows, CHART_SAMPLE_EXCERPT);
      const transcript: BaseMessage[] = [new SystemMessage(chartWriterPrompt(columns, sample, data.row_count)), new HumanMessage(request)];
      let lastProblem = '';
      try {
        const model = deps.models.chatModel(context.state.model_name!, { signal: context.signal });
        for (let attempt = 0; attempt <= MAX_CHART_CORRECTIONS; attempt++) {
          const reply = messageText((await model.invoke(transcript, innerCallConfig(context))).content);
          transcript.push(new AIMessage(reply));
          const parsed = extractJsonObject(reply);
          // Only what draws the injected rows is kept: no URL, image mark, usermeta or nested data.
          const sanitized = 'value' in parsed ? sanitizeSpec(parsed.value) : parsed;
          const spec = 'value' in sanitized ? injectData(sanitized.value, data.rows) : null;
          lastProblem = 'error' in sanitized ? sanitized.error : (validateSpec(spec!, columns) ?? '');
          if (spec && !lastProblem) return chart(spec, false);
          transcript.push(new HumanMessage(`That spec does not work: ${lastProblem}. Reply with a corrected Vega-Lite JSON spec (no data values) in one \`\`\`json block.`));
        }
      } catch (error) {
        if (context.signal?.aborted) throw error;
        // A failing model must not cost the user the chart: fall through to the type-based one.
        lastProblem = (error as Error).message;
      }
      const spec = fallbackSpec(columns, data.rows, request.length <= 80 ? request : undefined);
      return { ...chart(spec, true), content: `The requested chart could not be built (${lastProblem}); a ${describeMark(spec)} chosen from the column types is shown instead.` };
    },
  };
}

function chart(spec: Record<string, unknown>, fallback: boolean): ToolOutcome {
  return {
    content: `Chart drawn: ${describeMark(spec)}${typeof spec.title === 'string' ? ` titled "${spec.title}"` : ''}. The user sees it below your answer.`,
    result: { type: 'vega_lite_spec', spec, ...(fallback ? { fallback: true } : {}) },
  };
}

function describeMark(spec: Record<string, unknown>): string {
  const mark = spec.mark;
  const type = typeof mark === 'string' ? mark : ((mark as { type?: string } | undefined)?.type ?? (spec.layer ? 'layered' : 'composite'));
  return `${type} chart`;
}
