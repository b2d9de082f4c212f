import type { ProbeOutcome } from './providers/provider.js';

export interface ProbeRequest {
  /** Names the server in reasons: "LM Studio at http://…/v1". */
  label: string;
  url: string;
  apiKey?: string;
  timeoutMs: number;
  /** Aborts the probe when the registry shuts down. */
  signal: AbortSignal;
}

type JsonAnswer = { ok: true; status: number; body: unknown } | { ok: false; reason: string; status?: number };

/** GET a JSON document; every failure becomes a reason a user can act on. Never throws. */
export async function getJson(request: ProbeRequest): Promise<JsonAnswer> {
  const signal = AbortSignal.any([request.signal, AbortSignal.timeout(request.timeoutMs)]);
  try {
    const res = await fetch(request.url, {
      signal,
      headers: { accept: 'application/json', ...(request.apiKey ? { authorization: `Bearer ${request.apiKey}` } : {}) },
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      return { ok: false, status: res.status, reason: `${request.label} answered HTTP ${res.status}` };
    }
    const text = await res.text();
    try {
      return { ok: true, status: res.status, body: JSON.parse(text) };
    } catch {
      return { ok: false, reason: `${request.label} did not answer with JSON` };
    }
  } catch (error) {
    return { ok: false, reason: failureReason(request, error) };
  }
}

function failureReason(request: ProbeRequest, error: unknown): string {
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError' || (name === 'AbortError' && !request.signal.aborted)) {
    return `${request.label} did not answer within ${seconds(request.timeoutMs)}`;
  }
  if (request.signal.aborted) return `${request.label}: check cancelled`;
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code === 'ECONNREFUSED') return `${request.label} refused the connection (is it running?)`;
  if (cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN') return `${request.label}: host not found`;
  // fetch's own message is only "fetch failed"; the cause says why (a code, or e.g. "bad port").
  return `${request.label} is not reachable (${cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error)})`;
}

/** 2000 → "2 s", 300 → "0.3 s". */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** Model ids from an OpenAI-style `GET /models` ({data:[{id}]}). */
export async function listOpenAIModels(request: Omit<ProbeRequest, 'url'> & { baseURL: string }): Promise<ProbeOutcome> {
  const answer = await getJson({ ...request, url: `${request.baseURL}/models` });
  if (!answer.ok) {
    // Some OpenAI-compatible servers do not implement /models: they answered, so they are up.
    if (answer.status === 404 || answer.status === 405) return { ok: true, models: null };
    if (answer.status === 401 || answer.status === 403) return { ok: false, reason: `${request.label} rejected the API key (HTTP ${answer.status})` };
    return answer;
  }
  const data = (answer.body as { data?: unknown })?.data;
  if (!Array.isArray(data)) return { ok: false, reason: `${request.label} sent an unexpected answer to GET /models` };
  return { ok: true, models: data.map((m) => (m as { id?: unknown })?.id).filter((id): id is string => typeof id === 'string') };
}

/** Strips credentials and query from a URL before it appears in a reason or a log line. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(invalid URL)';
  }
}

/** An OpenAI base URL: no trailing slash, `/v1` appended when no version segment is given. */
export function openAIBaseUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/v\d+$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
}
