import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from './support/app-server';
import { screenshot } from './support/browser';
import { appInBrowser, registerInBrowser } from './support/session';

// The embedded default with no model configured at all: the app says how to enable one, and
// direct SQL on the generated demo store still works.

const PROVIDER_VARIABLES = ['LM_STUDIO_ENDPOINT', 'DEEPSEEK_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'OLLAMA_BASE_URL', 'MODELS_CONFIG'];
const CUSTOMERS_BY_COUNTRY = 'SELECT country, COUNT(*) AS customers FROM customers GROUP BY country ORDER BY customers DESC, country LIMIT 5';

describe('the web app with no language model configured', () => {
  let app: AppServer;
  let page: Page;
  let pageErrors: string[];

  const byTestId = (id: string) => page.getByTestId(id);
  const session = appInBrowser();

  beforeAll(async () => {
    ({ app, page, pageErrors } = await session.open({ SSE_PING_MS: '1000' }));
  });

  it('names the environment variable of every provider, on the start screen', async () => {
    await registerInBrowser(page, 'no-model');

    const notice = byTestId('no-model-notice');
    await notice.waitFor();
    const text = (await notice.textContent()) ?? '';
    for (const variable of PROVIDER_VARIABLES) expect(text).toContain(variable);
    expect(text).toContain('SQL:');
    expect(await byTestId('message-input').getAttribute('placeholder')).toMatch(/SQL:/);
    await screenshot(page, '05-no-model');
  });

  it('runs `SQL: SELECT …` on the demo store from the composer, with the rows the file really holds', async () => {
    await byTestId('message-input').fill(`SQL: ${CUSTOMERS_BY_COUNTRY}`);
    await byTestId('message-input').press('Enter');
    await page.waitForURL(/\/threads\/[^/]+$/);

    // The thread starts on the demo store (the only connection) and without a model.
    await expect.poll(() => byTestId('connection-select').locator('option:checked').textContent()).toMatch(/demo/i);
    expect(await byTestId('model-picker').inputValue()).toBe('');

    const demo = new Database(path.join(app.dataDir, 'sqlite', 'demo_store.sqlite'), { readonly: true, fileMustExist: true });
    const expected = demo.prepare(CUSTOMERS_BY_COUNTRY).all() as { country: string; customers: number }[];
    demo.close();
    expect(expected.length).toBe(5);

    const rows = page.locator('.messages [data-testid="results-table"] tbody tr');
    await expect
      .poll(() => rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? ''))))
      .toEqual(expected.map((r) => [r.country, String(r.customers)]));
    expect(await byTestId('sql-block').textContent()).toContain('GROUP BY country');
    expect(await byTestId('assistant-text').count()).toBe(0);
    await byTestId('no-model-notice').waitFor();
    await screenshot(page, '05-no-model-sql', { fullPage: true });
  });

  it('answers a plain-language question with an error that says what to do, where it happened', async () => {
    await byTestId('message-input').fill('Which country has the most customers?');
    await byTestId('message-input').press('Enter');
    const error = page.locator('.messages [data-testid="error-box"]');
    await error.waitFor();
    expect(await error.getAttribute('data-code')).toBe('NO_MODEL');
    expect(await error.textContent()).toContain('LM_STUDIO_ENDPOINT');
    await byTestId('send-button').waitFor();
    // The question stays in the thread, after the SQL turn.
    expect(await byTestId('user-message').count()).toBe(2);
  });

  it('threw no uncaught error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
