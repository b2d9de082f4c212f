import { analystResponder } from '@aigis/test-support/scripted-analyst';
import { startFakeOpenAI, type FakeOpenAI } from '@aigis/test-support/fake-openai';
import { messageFor, type EvalQuestion } from './benchmark.js';
import { corrupt, type Corruption } from './corrupt-sql.js';

/** What the scripted model answers: each question's first gold query, or a corrupted one. */
export type ScriptedMode = 'gold' | Corruption;
export const SCRIPTED_MODES: readonly ScriptedMode[] = ['gold', 'wrong-column', 'wrong-filter'];

/**
 * The scripted OpenAI-compatible model (the test suite's fake) answering the benchmark: the assistant calls
 * ask_database with the user's message, the SQL writer replays the question's SQL, the assistant answers.
 * No network: it runs in this process. With `record`, its request log keeps every request (the prompts it saw).
 */
export async function startScriptedModel(questions: EvalQuestion[], mode: ScriptedMode, modelId: string, options: { record?: boolean } = {}): Promise<FakeOpenAI> {
  const sqlByMessage = new Map(questions.map((q) => [messageFor(q), mode === 'gold' ? q.gold[0]! : corrupt(q.gold[0]!, mode)]));
  const responder = analystResponder({
    sqlFor: (question) => sqlByMessage.get(question) ?? [...sqlByMessage].find(([message]) => question.includes(message))?.[1] ?? 'SELECT 1 AS unknown_question',
  });
    // Recording keeps every prompt (schema included): only for callers that read the log, e.g. the harness's tests.
  return startFakeOpenAI({ models: [modelId], responder, record: options.record ?? false });
}
