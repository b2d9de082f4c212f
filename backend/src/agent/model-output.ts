/** Reasoning models (qwen3, deepseek-reasoner, gpt-oss) may wrap their thinking in tags; it is never part of an answer. */
export function stripThinking(text: string): string {
  return text.replace(/<think>[\s\S]*?(<\/think>|$)/gi, '').trim();
}

/** Statement keywords a reply's SQL may start with. Writes are kept on purpose: the guard refuses them with a reason the model can act on. */
const STATEMENT_START = /^\s*(select|with|values|explain|insert|update|delete|merge|replace|create|alter|drop|truncate|grant|revoke|set|copy|call|do|begin|commit|rollback|attach|pragma|load|lock|show|\()\b/im;

/** The SQL in a model reply: a ```sql block, any ``` block, or the bare text from the first statement keyword on. */
export function extractSql(reply: string): string | null {
  const text = stripThinking(reply);
  const fenced = /```(?:sql|postgresql|mysql|sqlite)?[^\n]*\n([\s\S]*?)```/i.exec(text);
  if (fenced) return fenced[1].trim() || null;
  const match = STATEMENT_START.exec(text);
  return match ? text.slice(match.index).trim() : null;
}

/** The JSON object in a model reply (fenced or the outermost braces), or an error saying why it is not there. */
export function extractJsonObject(reply: string): { value: Record<string, unknown> } | { error: string } {
  const text = stripThinking(reply);
  const fenced = /```(?:json|vega-lite|vegalite)?[^\n]*\n([\s\S]*?)```/i.exec(text);
  let candidate = fenced ? fenced[1] : text;
  if (!fenced) {
    const first = candidate.indexOf('{');
    const last = candidate.lastIndexOf('}');
    if (first === -1 || last <= first) return { error: 'the reply contains no JSON object' };
    candidate = candidate.slice(first, last + 1);
  }
  try {
    const value = JSON.parse(candidate);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'the JSON is not an object' };
    return { value };
  } catch (error) {
    return { error: `the JSON does not parse: ${(error as Error).message}` };
  }
}
