import type { SqlResultContent, StreamEvent, TurnUsage } from '@aigis/contracts';
import type { ApiClient } from '../test/support/api-client.js';
import { streamMessage } from '../test/support/sse-client.js';
import { messageFor, type EvalQuestion } from './benchmark.js';
import { ordersAtTopLevel } from './gold-order.js';
import { resultsMatch, type ResultTable } from './result-match.js';

/** Everything recorded about one question of one run. */
export interface QuestionResult {
  id: string;
  db: string;
  category: string;
  question: string;
  correct: boolean;
  /** Why it is wrong (or which gold variant matched). */
  reason: string;
  /** The SQL whose result was scored: the last query of the answer that returned rows. */
  generated_sql: string | null;
  gold_sql: string;
  /** Errors on the way: stream errors, tool errors (e.g. a query the database refused), transport failures. */
  errors: string[];
  model_calls: number | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  latency_ms: number;
  thread_id: string | null;
}

export interface AskContext {
  api: ApiClient;
  model: string;
  connectionId: string;
  family: 'mysql' | 'sqlite';
  /** The gold results of the question's variants (run once, reused by every run). */
  gold: GoldResult[];
  timeoutMs: number;
  /** The thread's use of the connection's knowledge examples; undefined: the app's default. */
  knowledgeExamples?: boolean;
}

export type GoldResult = { sql: string; table: ResultTable; ordered: boolean } | { sql: string; error: string };

/** What one answer may send before the harness stops reading it (the API bounds it too; the harness checks). */
export const MAX_ANSWER_CHARS = 32 * 1024 * 1024;
/** What one gold result may weigh. */
const MAX_GOLD_CHARS = 16 * 1024 * 1024;
/** The error texts kept per question (each cut to 300 characters). */
const MAX_ERRORS = 10;

/** Runs every gold variant through the API's query endpoint (same guard, execution and value conversion as the agent's). */
export async function runGold(api: ApiClient, connectionId: string, question: EvalQuestion, family: 'mysql' | 'sqlite'): Promise<GoldResult[]> {
  const out: GoldResult[] = [];
  for (const sql of question.gold) {
    const response = await fetch(`${api.baseUrl}/api/connections/${connectionId}/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sql, limit: 5000 }),
    });
    const text = await boundedText(response, MAX_GOLD_CHARS);
    if (response.status !== 200 || text === null) {
      out.push({ sql, error: text === null ? 'gold result too large' : `HTTP ${response.status}: ${text.slice(0, 300)}` });
      continue;
    }
    let body: { columns: string[]; rows: Record<string, unknown>[]; truncated: boolean };
    try {
      body = JSON.parse(text);
    } catch {
      out.push({ sql, error: 'gold result is not JSON' });
      continue;
    }
    out.push({ sql, table: { columns: body.columns, rows: body.rows, truncated: body.truncated }, ordered: ordersAtTopLevel(sql, family) });
  }
  return out;
}

/** Asks one question in a thread of its own, through the agent, and scores the answer against the gold results. */
export async function askQuestion(question: EvalQuestion, ctx: AskContext): Promise<QuestionResult> {
  const errors: string[] = [];
  const note = (text: string) => {
    if (errors.length < MAX_ERRORS) errors.push(String(text).slice(0, 300));
  };
  const base = { id: question.id, db: question.db, category: question.category, question: question.question, gold_sql: question.gold[0]! };
  const started = performance.now();
  const created = await ctx.api.post('/api/chat', {
    model: ctx.model,
    connection_id: ctx.connectionId,
    title: question.id.slice(0, 200),
    review: 'never',
    ...(ctx.knowledgeExamples === undefined ? {} : { knowledge_examples: ctx.knowledgeExamples }),
  });
  if (created.status !== 201) {
    return { ...base, correct: false, reason: 'thread not created', generated_sql: null, errors: [`HTTP ${created.status}: ${JSON.stringify(created.body).slice(0, 300)}`], model_calls: null, prompt_tokens: null, completion_tokens: null, latency_ms: 0, thread_id: null };
  }
  const threadId = String(created.body.thread_id);

  let events: StreamEvent[] = [];
  try {
    const answer = await streamMessage(ctx.api.baseUrl, ctx.api.token!, threadId, messageFor(question), {
      signal: AbortSignal.timeout(ctx.timeoutMs),
      maxChars: MAX_ANSWER_CHARS,
    });
    events = answer.events;
    if (answer.json) note(`HTTP ${answer.status}: ${JSON.stringify(answer.json)}`);
    if (answer.overflowed) note(`answer larger than ${MAX_ANSWER_CHARS} characters: not read to its end`);
  } catch (error) {
    note((error as Error).name === 'TimeoutError' ? `no answer within ${ctx.timeoutMs / 1000} s` : `stream failed: ${(error as Error).message}`);
  }
  const latency = performance.now() - started;

  let generated: SqlResultContent | null = null;
  let usage: TurnUsage | undefined;
  for (const event of events) {
    if (event.type === 'tool_result' && event.data?.name === 'ask_database') {
      const content = event.data.content;
      if (content?.type === 'sql_result') generated = content;
      else if (content?.type === 'error') note(`${content.code}: ${content.message}`);
    } else if (event.type === 'error') note(`${event.data?.code}: ${event.data?.error}`);
    else if (event.type === 'end') usage = event.data?.usage;
    else if (event.type === 'confirm_required') note('the answer paused for review');
  }
  const measured = {
    model_calls: usage ? usage.model_calls : null,
    prompt_tokens: usage ? usage.prompt_tokens : null,
    completion_tokens: usage ? usage.completion_tokens : null,
    latency_ms: Math.round(latency),
    thread_id: threadId,
    errors,
  };
  if (!generated) return { ...base, ...measured, correct: false, reason: 'no query result in the answer', generated_sql: null };
  const verdict = score(ctx.gold, generated);
  return { ...base, ...measured, ...verdict, generated_sql: typeof generated.sql === 'string' ? generated.sql.slice(0, 20_000) : null };
}

/** Right when the result matches any gold variant's. */
export function score(gold: GoldResult[], generated: SqlResultContent): { correct: boolean; reason: string } {
  const reasons: string[] = [];
  for (const [i, variant] of gold.entries()) {
    if ('error' in variant) {
      reasons.push(`gold #${i + 1} failed: ${variant.error}`);
      continue;
    }
    const outcome = resultsMatch(variant.table, { columns: generated.columns, rows: generated.rows, truncated: generated.truncated }, variant.ordered);
    if (outcome.match) return { correct: true, reason: gold.length > 1 ? `matches gold #${i + 1}` : 'matches' };
    reasons.push(outcome.reason ?? 'differs');
  }
  return { correct: false, reason: [...new Set(reasons)].join('; ') };
}

/** The body as text, or null when it is longer than `maxChars` (the rest is not read). */
async function boundedText(response: Response, maxChars: number): Promise<string | null> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
    if (text.length > maxChars) {
      await reader.cancel();
      return null;
    }
  }
}
