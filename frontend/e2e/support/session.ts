import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach } from 'vitest';
import { startAppServer, type AppServer } from './app-server';
import type { FakeOpenAI } from './backend-support';
import { launchBrowser, openDesktopPage, reportFailure } from './browser';

export interface AppInBrowser {
  app: AppServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions in the page. */
  pageErrors: string[];
}

/**
 * One built app and one desktop page of headless Chromium for a test file, opened by `open()` in the file's
 * beforeAll. Calling this registers what every such file needs: a failing test leaves a screenshot and the
 * server's last output; after all, the page, the browser and the app close, then `cleanup` runs (the scripted
 * model, a database: whatever of them started).
 */
export function appInBrowser(cleanup: () => Promise<unknown> = async () => undefined) {
  const session: Partial<AppInBrowser> = {};
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await reportFailure(session.page, ctx.task.name, session.app?.output());
  });
  afterAll(async () => {
    await session.context?.close();
    await session.browser?.close();
    await session.app?.stop();
    await cleanup();
  });
  return {
    /**
     * Starts the app with `env` and opens the page. With `model` (the scripted model server the env names), waits
     * until the app has listed its models: the registry probes them at boot, the web app reads availability once
     * signed in.
     */
    async open(env: Record<string, string>, model?: FakeOpenAI): Promise<AppInBrowser> {
      // Assigned one by one, so afterAll closes whatever did start if another part fails.
      await Promise.all([startAppServer(env).then((a) => (session.app = a)), launchBrowser().then((b) => (session.browser = b))]);
      if (model) await model.waitFor(() => model.requests.some((r) => r.path === '/v1/models' && r.finishedAt !== undefined), 10_000);
      Object.assign(session, await openDesktopPage(session.browser!, session.app!.url));
      return session as AppInBrowser;
    },
  };
}

export const PASSWORD = 'correct horse battery staple';

/** Registers a new account (`<label>-<time>@example.com`) on the sign-up page and waits until it is signed in. */
export async function registerInBrowser(page: Page, label: string): Promise<string> {
  const email = `${label}-${Date.now().toString(36)}@example.com`;
  await page.goto('/register');
  await page.getByTestId('auth-email').fill(email);
  await page.getByTestId('auth-password').fill(PASSWORD);
  await page.getByTestId('auth-submit').click();
  await page.getByTestId('new-thread').waitFor();
  return email;
}

/**
 * Calls the API as the browser's session does (its cookie, and the app's Origin as the web app sends it); any
 * answer but a 2xx throws with the status and body, so a test's setup cannot fail quietly.
 */
export function browserApi(context: BrowserContext, appUrl: string) {
  return async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await context.request.fetch(`${appUrl}/api${path}`, { method, headers: { origin: appUrl }, ...(body ? { data: body } : {}) });
    if (!res.ok()) throw new Error(`${method} /api${path} answered ${res.status()}: ${await res.text()}`);
    return (res.status() === 204 ? undefined : await res.json()) as T;
  };
}
