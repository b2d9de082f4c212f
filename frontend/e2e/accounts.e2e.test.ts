import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from './support/app-server';
import { launchBrowser, openDesktopPage, reportFailure, screenshot } from './support/browser';

// A team instance (REGISTRATION=invite): the first account sets it up as the admin, invites a
// colleague through a link, and can disable them. The session lives in an httpOnly cookie only.

const ADMIN = { email: 'owner@example.com', password: 'owner passphrase' };
const MEMBER = { email: 'colleague@example.com', password: 'colleague passphrase' };

describe('accounts in the web app (invite-only instance)', () => {
  let app: AppServer;
  let browser: Browser;
  let adminContext: BrowserContext;
  let admin: Page;
  let memberContext: BrowserContext | undefined;
  let member: Page | undefined;
  let adminErrors: string[];
  let inviteUrl = '';

  beforeAll(async () => {
    await Promise.all([startAppServer({ REGISTRATION: 'invite' }).then((a) => (app = a)), launchBrowser().then((b) => (browser = b))]);
    ({ context: adminContext, page: admin, pageErrors: adminErrors } = await openDesktopPage(browser, app.url));
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await reportFailure(member ?? admin, ctx.task.name, app?.output());
  });

  afterAll(async () => {
    await memberContext?.close();
    await adminContext?.close();
    await browser?.close();
    await app?.stop();
  });

  it('lets the first account set the instance up, signed in by an httpOnly cookie (nothing in storage)', async () => {
    await admin.goto('/login');
    await admin.getByTestId('auth-switch').click();
    await admin.waitForURL('**/register');
    // The heading waits for the server's answer (first account or not), never guesses.
    await admin.getByRole('heading', { level: 1, name: 'Set up Aigis' }).waitFor();
    await admin.getByTestId('auth-email').fill(ADMIN.email);
    await admin.getByTestId('auth-password').fill(ADMIN.password);
    await admin.getByTestId('auth-submit').click();
    await admin.getByTestId('nav-admin').waitFor();

    expect(await admin.evaluate(() => ({ local: Object.keys(localStorage), session: Object.keys(sessionStorage), cookie: document.cookie }))).toEqual({
      local: [],
      session: [],
      cookie: '',
    });
    const [cookie] = await adminContext.cookies();
    expect(cookie).toMatchObject({ name: 'aigis_session', httpOnly: true, sameSite: 'Strict', path: '/' });
  });

  it('shows a visitor without an invite that registration is invite-only', async () => {
    const visitorContext = await browser.newContext({ baseURL: app.url });
    try {
      const visitor = await visitorContext.newPage();
      await visitor.goto('/register');
      const notice = visitor.getByTestId('registration-notice');
      await notice.waitFor();
      expect(await notice.textContent()).toMatch(/invite-only/);
      expect(await visitor.getByTestId('auth-email').count()).toBe(0);
      await visitor.goto('/login');
      expect(await visitor.getByTestId('registration-notice').textContent()).toMatch(/invite link/);
    } finally {
      await visitorContext.close();
    }
  });

  it('the admin creates an invite link; the colleague registers with it, as a member', async () => {
    await admin.getByTestId('nav-admin').click();
    await admin.waitForURL('**/admin');
    await admin.getByTestId('admin-page').waitFor();
    expect(await admin.getByTestId('registration-locked').textContent()).toMatch(/REGISTRATION/);
    await admin.getByTestId('invite-create').click();
    inviteUrl = (await admin.getByTestId('invite-url').textContent()) ?? '';
    expect(inviteUrl).toMatch(new RegExp(`^${app.url}/register\\?invite=inv_`));
    await expect.poll(() => admin.locator('[data-testid="admin-invite"][data-status="pending"]').count()).toBe(1);
    await screenshot(admin, '09-admin');

    ({ context: memberContext, page: member } = await openDesktopPage(browser, app.url));
    await member.goto(inviteUrl);
    await member.getByTestId('auth-email').fill(MEMBER.email);
    await member.getByTestId('auth-password').fill(MEMBER.password);
    await member.getByTestId('auth-submit').click();
    await member.getByTestId('new-thread').waitFor();
    expect(await member.getByTestId('nav-admin').count()).toBe(0);

    // The link worked once.
    const again = await browser.newContext({ baseURL: app.url });
    try {
      const page = await again.newPage();
      await page.goto(inviteUrl);
      await page.getByTestId('auth-email').fill('someone-else@example.com');
      await page.getByTestId('auth-password').fill('another passphrase');
      await page.getByTestId('auth-submit').click();
      expect(await page.getByTestId('error-box').textContent()).toMatch(/invite link is not valid/);
    } finally {
      await again.close();
    }
  });

  it('the admin disables the colleague, whose session ends at the next request', async () => {
    await admin.reload();
    const row = admin.locator(`[data-testid="admin-user"][data-email="${MEMBER.email}"]`);
    await row.waitFor();
    // A controlled checkbox: it changes once the server has answered.
    await row.getByTestId('admin-user-enabled').click();
    await expect.poll(() => row.textContent()).toMatch(/disabled/);
    // The admin's own row cannot be changed.
    expect(await admin.locator(`[data-testid="admin-user"][data-email="${ADMIN.email}"]`).getByTestId('admin-user-enabled').isDisabled()).toBe(true);

    await member!.reload();
    await member!.waitForURL(/\/login/);
    await member!.getByTestId('auth-email').fill(MEMBER.email);
    await member!.getByTestId('auth-password').fill(MEMBER.password);
    await member!.getByTestId('auth-submit').click();
    expect(await member!.getByTestId('error-box').textContent()).toMatch(/disabled/);
    expect(adminErrors).toEqual([]);
  });

  it('logging out expires the cookie', async () => {
    await admin.getByTestId('logout').click();
    await admin.waitForURL(/\/login/);
    expect(await adminContext.cookies()).toEqual([]);
  });
});
