// @vitest-environment jsdom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CorrectionsSection } from './CorrectionsSection';
import { ExamplesSection } from './ExamplesSection';
import { GlossarySection } from './GlossarySection';
import type { ConnectionKnowledge } from '@aigis/contracts';
import { ExampleTargetContext, SaveAsExample } from './SaveAsExample';
import { allByTestId, byTestId, render, type } from '../../testing/dom';

const settle = () => act(async () => new Promise((r) => setTimeout(r, 0)));

/** The API as the browser sees it: answers by method and path, and every request it received. */
let routes: Record<string, (body: unknown) => { status: number; body?: unknown }>;
let requests: { method: string; path: string; body: unknown }[];
beforeEach(() => {
  routes = {};
  requests = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const method = init.method ?? 'GET';
    const path = url.replace(/^\/api/, '');
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    requests.push({ method, path, body });
    const handler = routes[`${method} ${path}`];
    const answer = handler ? handler(body) : { status: 404, body: { error: { code: 'NOT_FOUND', message: 'Not found.' } } };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>**bold**';

const empty: ConnectionKnowledge = { connection_id: 'c1', instructions: { text: '', updated_at: null }, glossary: [], tables: [], examples: [], learnings: [] };
const sectionProps = (knowledge: Partial<ConnectionKnowledge>) => ({ connectionId: 'c1', knowledge: { ...empty, ...knowledge }, update: () => undefined });
const term = (id: string, over: object = {}) => ({ id, term: id, definition: 'd', sql: null, unit: null, caveats: [], created_at: '', updated_at: '', ...over });

describe('knowledge text is shown as text, never as markup', () => {
  it('a glossary term, definition, caveats and unit written as HTML stay literal', async () => {
    const root = await render(
      <GlossarySection {...sectionProps({ glossary: [term('g1', { term: HOSTILE, definition: `${HOSTILE}\nsecond line`, unit: '<b>u</b>', caveats: [HOSTILE] })] })} />,
    );
    expect(byTestId(root, 'glossary-item-term').textContent).toBe(HOSTILE);
    expect(byTestId(root, 'glossary-item-definition').textContent).toBe(`${HOSTILE}\nsecond line`);
    expect(byTestId(root, 'glossary-item-caveats').textContent).toBe(HOSTILE);
    expect(root.querySelector('[data-testid="glossary-list"] img, [data-testid="glossary-list"] script, [data-testid="glossary-list"] b')).toBeNull();
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('a learned correction from the model is listed by confidence, as text', async () => {
    const learning = { category: 'naming' as const, tables: ['<b>t</b>'], failed_sql: null, working_sql: 'SELECT 1', thread_id: null, created_at: '', updated_at: '2026-01-01' };
    const root = await render(
      <CorrectionsSection
        {...sectionProps({
          learnings: [
            { ...learning, id: 'a', lesson: 'seen once', confidence: 1 },
            { ...learning, id: 'b', lesson: HOSTILE, confidence: 4 },
          ],
        })}
      />,
    );
    expect(allByTestId(root, 'correction-lesson').map((e) => e.textContent)).toEqual([HOSTILE, 'seen once']);
    expect(allByTestId(root, 'correction-confidence').map((e) => e.textContent)).toEqual(['recorded 4 times', 'recorded once']);
    expect(root.querySelector('[data-testid="correction-list"] img, [data-testid="correction-list"] b')).toBeNull();
  });

  it('shows a page of 20 at a time', async () => {
    const root = await render(<GlossarySection {...sectionProps({ glossary: Array.from({ length: 45 }, (_, i) => term(`T${i}`)) })} />);
    expect(allByTestId(root, 'glossary-item')).toHaveLength(20);
    expect(byTestId(root, 'glossary-pager').textContent).toContain('1–20 of 45');
    // A long list can be filtered: T4 and T40–T44.
    await act(async () => type(byTestId(root, 'glossary-filter') as HTMLInputElement, 't4'));
    expect(allByTestId(root, 'glossary-item-term').map((e) => e.textContent)).toEqual(['T4', 'T40', 'T41', 'T42', 'T43', 'T44']);
    expect(byTestId(root, 'glossary-pager')).toBeNull();
  });

  it('offers no filter for a short list', async () => {
    const root = await render(<GlossarySection {...sectionProps({ glossary: [term('a'), term('b')] })} />);
    expect(byTestId(root, 'glossary-filter')).toBeNull();
  });
});

describe('adding an example', () => {
  it("keeps the form and shows the API's error when the SQL does not run", async () => {
    routes['POST /connections/c1/knowledge/examples'] = () => ({ status: 422, body: { error: { code: 'QUERY_FAILED', message: 'relation "nope" does not exist' } } });
    const root = await render(<ExamplesSection {...sectionProps({})} />);
    await act(async () => byTestId(root, 'example-add').click());
    await act(async () => {
      type(byTestId(root, 'example-question') as HTMLInputElement, 'How many?');
      type(byTestId(root, 'example-sql') as HTMLTextAreaElement, 'SELECT count(*) FROM nope');
    });
    await act(async () => byTestId(root, 'example-save').click());
    await settle();
    expect(requests).toEqual([{ method: 'POST', path: '/connections/c1/knowledge/examples', body: { question: 'How many?', sql: 'SELECT count(*) FROM nope' } }]);
    const error = byTestId(root, 'example-error').querySelector('[data-testid="error-box"]') as HTMLElement;
    expect(error.dataset.code).toBe('QUERY_FAILED');
    expect(error.textContent).toContain('relation "nope" does not exist');
    expect((byTestId(root, 'example-sql') as HTMLTextAreaElement).value).toBe('SELECT count(*) FROM nope');
  });
});

describe('save as example', () => {
  const inThread = (node: React.ReactNode) => <ExampleTargetContext.Provider value={{ connectionId: 'c1', threadId: 't1' }}>{node}</ExampleTargetContext.Provider>;
  const saved = (body: unknown) => ({ status: 201, body: { id: 'e1', ...(body as object) } });

  it('saves the answer in one click, naming the thread and the tool call, and says so', async () => {
    routes['POST /connections/c1/knowledge/examples/from-answer'] = saved;
    const root = await render(inThread(<SaveAsExample callId="call_1" hasQuestion />));
    await act(async () => byTestId(root, 'save-example').click());
    await settle();
    expect(requests).toEqual([{ method: 'POST', path: '/connections/c1/knowledge/examples/from-answer', body: { thread_id: 't1', message_id: 'call_1' } }]);
    expect(byTestId(root, 'save-example-done').textContent).toContain('Saved as an example');
    expect(byTestId(root, 'save-example')).toBeNull();
  });

  it("shows the API's error, and allows another try", async () => {
    routes['POST /connections/c1/knowledge/examples/from-answer'] = () => ({ status: 422, body: { error: { code: 'QUERY_FAILED', message: 'relation "nope" does not exist' } } });
    const root = await render(inThread(<SaveAsExample callId="call_1" hasQuestion />));
    await act(async () => byTestId(root, 'save-example').click());
    await settle();
    const error = byTestId(root, 'error-box');
    expect(error.dataset.code).toBe('QUERY_FAILED');
    expect(error.textContent).toContain('relation "nope" does not exist');
    expect((byTestId(root, 'save-example') as HTMLButtonElement).disabled).toBe(false);
  });

  it('asks for the question after SQL typed by hand', async () => {
    routes['POST /connections/c1/knowledge/examples/from-answer'] = saved;
    const root = await render(inThread(<SaveAsExample callId="call_2" hasQuestion={false} />));
    await act(async () => byTestId(root, 'save-example').click());
    expect(requests).toEqual([]);
    await act(async () => type(byTestId(root, 'save-example-question') as HTMLInputElement, ' Two? '));
    await act(async () => byTestId(root, 'save-example-submit').click());
    await settle();
    expect(requests.map((r) => r.body)).toEqual([{ thread_id: 't1', message_id: 'call_2', question: 'Two?' }]);
  });

  it('is absent where the thread has no connection', async () => {
    const root = await render(<SaveAsExample callId="call_1" hasQuestion />);
    expect(byTestId(root, 'save-example')).toBeNull();
  });
});

