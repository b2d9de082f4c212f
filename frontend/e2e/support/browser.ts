import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ARTIFACTS, CHROMIUM } from './paths';

/** Headless Chromium from the system (playwright-core downloads no browser). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export interface WatchedPage {
  page: Page;
  /** Uncaught exceptions in the page (a React crash shows up here). */
  pageErrors: string[];
}

/** A page whose uncaught errors are collected, so a test can assert the app never threw. */
export async function openPage(context: BrowserContext): Promise<WatchedPage> {
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.stack ?? error.message));
  return { page, pageErrors };
}

export const DESKTOP = { width: 1280, height: 860 };

/** A light-theme desktop page on the app, with its errors watched and a timeout that fits a loaded machine. */
export async function openDesktopPage(browser: Browser, baseURL: string): Promise<WatchedPage & { context: BrowserContext }> {
  const context = await browser.newContext({ viewport: DESKTOP, baseURL, colorScheme: 'light' });
  const watched = await openPage(context);
  watched.page.setDefaultTimeout(15_000);
  return { ...watched, context };
}
export const PHONE = { width: 390, height: 844 };

/** Saves `frontend/test-artifacts/<name>.png`. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  const file = path.join(ARTIFACTS, `${name}.png`);
  // Screenshots wait for fonts and animations to settle; the caret would blink in and out.
  await page.screenshot({ path: file, fullPage: options.fullPage ?? false, animations: 'disabled', caret: 'hide' });
  return file;
}

/** How far the page is wider than the viewport (0 when nothing overflows horizontally). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const doc = document.documentElement;
    return Math.max(doc.scrollWidth, document.body.scrollWidth) - doc.clientWidth;
  });
}

/** The element wider than the viewport that sticks out the furthest, for a failure message. */
export function widestElement(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const limit = document.documentElement.clientWidth;
    let worst: { right: number; label: string } | null = null;
    const clipped = (el: Element) => {
      for (let a = el.parentElement; a; a = a.parentElement) {
        if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(a).overflowX)) return true;
      }
      return false;
    };
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      const rect = el.getBoundingClientRect();
      if (rect.right > limit + 1 && clipped(el)) continue;
      if (rect.right > limit + 1 && (!worst || rect.right > worst.right)) {
        const testId = el.getAttribute('data-testid');
        worst = { right: rect.right, label: `${el.tagName.toLowerCase()}${testId ? `[data-testid=${testId}]` : ''}.${String(el.className)} (right edge ${Math.round(rect.right)} px)` };
      }
    }
    return worst?.label ?? null;
  });
}

/** After a failed test: a screenshot of the page as it was, and the server's last output, to see why. */
export async function reportFailure(page: Page | undefined, testName: string, serverOutput?: string): Promise<void> {
  const name = `FAILED-${testName.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}`;
  const file = page ? await screenshot(page, name, { fullPage: true }).catch(() => null) : null;
  const tail = serverOutput?.trim().split('\n').slice(-30).join('\n');
  console.error(`[e2e] "${testName}" failed.${file ? ` Screenshot: ${file}` : ''}${page ? ` URL: ${page.url()}` : ''}${tail ? `\nServer output (last lines):\n${tail}` : ''}`);
}
