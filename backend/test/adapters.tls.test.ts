import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SslMode } from '@aigis/contracts';
import { AppError } from '../src/common/app-error.js';
import type { DialectAdapter } from '../src/connections/dialects/dialect-adapter.js';
import { createAdapter } from '../src/connections/dialects/index.js';
import { HostResolver } from '../src/connections/reach/host-resolver.js';
import { TargetPolicy } from '../src/connections/reach/target-policy.js';
import { ApiClient } from './support/api-client.js';
import { TEST_PG_URL } from '@aigis/test-support/env';
import { pgTarget } from './support/fixtures.js';
import { pgTlsFront, selfSignedCertificate, type SelfSigned } from './support/pg-tls-front.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const NAME = 'db.aigis.test';
const upstream = { host: new URL(TEST_PG_URL).hostname, port: Number(new URL(TEST_PG_URL).port || 5432) };
// The certificate names db.aigis.test, which only our resolver knows: it answers 127.0.0.1.
const lookup = async (host: string) => (host === NAME ? [{ address: '127.0.0.1', family: 4 }] : (await import('node:dns')).promises.lookup(host, { all: true }));

describe('postgres TLS: sslmode is honoured against a server with a self-signed certificate', () => {
  let good: SelfSigned;
  let other: SelfSigned;
  let front: Awaited<ReturnType<typeof pgTlsFront>>;
  const open: DialectAdapter[] = [];
  const policy = new TargetPolicy({ mode: 'embedded', storage: null, lookup });

  beforeAll(async () => {
    good = selfSignedCertificate(NAME);
    other = selfSignedCertificate(NAME);
    front = await pgTlsFront(good, upstream);
  });
  afterAll(async () => {
    await Promise.all(open.map((a) => a.close()));
    await front?.close();
  });

  function connect(sslMode: SslMode, sslCa: string | null, host = NAME) {
    const a = createAdapter(pgTarget('postgres', { id: `tls-${sslMode}-${host}`, host, port: front.port, sslMode, sslCa }), {
      connectTimeoutMs: 3000,
      poolMax: 1,
      reach: (h, p, d) => policy.check(h, p, d),
    });
    open.push(a);
    return a.executeReadOnly('SELECT 1 AS one', { maxRows: 1, timeoutMs: 5000 });
  }

  async function refused(sslMode: SslMode, sslCa: string | null, host = NAME): Promise<AppError> {
    const err = await connect(sslMode, sslCa, host).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('CONNECTION_FAILED');
    return err as AppError;
  }

  it('require encrypts without checking the certificate', async () => {
    const before = front.handshakes();
    expect((await connect('require', null)).rows).toEqual([{ one: 1 }]);
    expect(front.handshakes()).toBe(before + 1);
  });

  it('verify-full connects with the right CA and the name the certificate carries', async () => {
    expect((await connect('verify-full', good.cert)).rows).toEqual([{ one: 1 }]);
  });

  it('verify-full refuses without a CA, with another CA, and under a name the certificate does not carry', async () => {
    expect((await refused('verify-full', null)).message).toMatch(/^TLS: the server's certificate could not be verified \(DEPTH_ZERO_SELF_SIGNED_CERT/);
    expect((await refused('verify-full', other.cert)).message).toMatch(/^TLS: the server's certificate could not be verified/);
    expect((await refused('verify-full', good.cert, 'localhost')).message).toMatch(/^TLS: the server's certificate does not name this host/);
  });

  it('verify-ca checks the issuer but not the name', async () => {
    expect((await connect('verify-ca', good.cert, 'localhost')).rows).toEqual([{ one: 1 }]);
    expect((await refused('verify-ca', other.cert, 'localhost')).message).toMatch(/could not be verified/);
  });

  it('disable sends no SSLRequest (this TLS-only front hangs up)', async () => {
    const before = front.handshakes();
    await refused('disable', null);
    expect(front.handshakes()).toBe(before);
  });
});

describe('postgres TLS through the API: sslmode=verify-full in a URL really verifies', () => {
  let app: TestApp;
  let front: Awaited<ReturnType<typeof pgTlsFront>>;
  let good: SelfSigned;

  beforeAll(async () => {
    good = selfSignedCertificate(NAME);
    front = await pgTlsFront(good, upstream);
    app = await startTestApp();
    vi.spyOn(app.app.get(HostResolver), 'lookup').mockImplementation(lookup);
  });
  afterAll(async () => {
    await app?.close();
    await front?.close();
  });

  it('refuses an unverifiable certificate, connects once the CA is supplied, and bounds the CA field', async () => {
    const api = new ApiClient(app.url);
    await api.register();
    const created = await api.post('/api/connections', { url: `postgres://postgres@${NAME}:${front.port}/postgres?sslmode=verify-full` });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ssl: true, ssl_mode: 'verify-full', ssl_ca: null });
    const untrusted = await api.post(`/api/connections/${created.body.id}/test`);
    expect(untrusted.status).toBe(422);
    expect(untrusted.body.error.message).toMatch(/^TLS: the server's certificate could not be verified/);

    const trusted = await api.patch(`/api/connections/${created.body.id}`, { ssl_ca: good.cert });
    expect(trusted.body.ssl_ca).toContain('BEGIN CERTIFICATE');
    const ok = await api.post(`/api/connections/${created.body.id}/test`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, elevated_privileges: expect.arrayContaining(['superuser']) });
    expect((await api.get(`/api/connections/${created.body.id}`)).body.elevated_privileges).toContain('superuser');

    for (const ssl_ca of ['not a certificate', `${good.cert}\nextra text`, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----', good.cert.repeat(80)]) {
      const bad = await api.patch(`/api/connections/${created.body.id}`, { ssl_ca });
      expect(bad.status, ssl_ca.slice(0, 40)).toBe(400);
      expect(bad.body.error.message).toMatch(/ssl_ca/);
    }
  });
});
