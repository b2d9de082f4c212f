import { describe, expect, it } from 'vitest';
import { parseHostRules } from '../src/config/host-rules.js';
import { type Lookup, storageServerOf, TargetPolicy, TargetRefusedError } from '../src/connections/reach/target-policy.js';
import { loadConfig } from '../src/config/env.schema.js';

/** A resolver the test controls; names it does not know fall back to the system's (numeric forms, localhost). */
function resolver(names: Record<string, string[]>, calls: string[] = []): Lookup {
  return async (host) => {
    calls.push(host);
    const answer = names[host];
    if (answer) return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    const dns = await import('node:dns');
    return dns.promises.lookup(host, { all: true, verbatim: true });
  };
}

async function refusal(policy: TargetPolicy, host: string, port = 5432, database: string | null = 'db'): Promise<string | null> {
  try {
    await policy.check(host, port, database);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(TargetRefusedError);
    return (error as TargetRefusedError).reason;
  }
}

describe('target policy', () => {
  const names = { 'public.example': ['93.184.216.34'], 'mixed.example': ['93.184.216.34', '10.0.0.5', '127.0.0.1'], 'meta.example': ['169.254.169.254'] };

  it('server mode: every spelling of loopback, this machine and link-local is refused; elsewhere is allowed', async () => {
    const policy = new TargetPolicy({ mode: 'server', storage: null, lookup: resolver(names) });
    for (const host of ['127.0.0.1', '127.0.0.2', '127.1', '2130706433', '0x7f.0.0.1', 'localhost', '::1', '0.0.0.0', '::', '::ffff:127.0.0.1', '::ffff:7f00:1', '169.254.169.254', 'fe80::1', 'fe80::1%lo', 'meta.example', 'mixed.example']) {
      expect(await refusal(policy, host), host).not.toBeNull();
    }
    for (const host of ['93.184.216.34', 'public.example', '10.0.0.5', '2001:db8::1']) {
      expect(await refusal(policy, host), host).toBeNull();
    }
  });

  it('red-team finding: server mode refuses IPv6 forms that reach a refused IPv4 address, and cloud metadata services', async () => {
    const policy = new TargetPolicy({ mode: 'server', storage: null, lookup: resolver({ 'imds6.example': ['fd00:ec2::254'] }) });
    for (const host of [
      '64:ff9b::a9fe:a9fe', '64:ff9b::169.254.169.254', '64:ff9b:1::a9fe:a9fe', '64:ff9b::7f00:1', // NAT64
      '2002:a9fe:a9fe::', '2002:7f00:1::1', // 6to4
      '::ffff:0:7f00:1', '::ffff:0:169.254.169.254', // IPv4-translated (SIIT)
      'fd00:ec2::254', 'imds6.example', '100.100.100.200', '168.63.129.16', '64:ff9b::6464:64c8', // metadata services
    ]) {
      expect(await refusal(policy, host), host).not.toBeNull();
    }
    // The same prefixes carrying a public address, and ordinary addresses near the metadata ones, stay reachable.
    for (const host of ['64:ff9b::5db8:d822', '2002:5db8:d822::1', 'fd00:ec2::253', '100.100.100.201', '2001:db8::a9fe:a9fe']) {
      expect(await refusal(policy, host), host).toBeNull();
    }
  });

  it('embedded: everything is allowed but what the operator denies', async () => {
    const policy = new TargetPolicy({ mode: 'embedded', storage: null, deny: '10.0.0.0/8, 2001:db8::/32, *.corp.example', lookup: resolver(names) });
    expect(await refusal(policy, '127.0.0.1')).toBeNull();
    expect(await refusal(policy, '169.254.169.254')).toBeNull();
    expect(await refusal(policy, '10.1.2.3')).toMatch(/CONNECTION_DENY_HOSTS/);
    expect(await refusal(policy, 'mixed.example')).toMatch(/CONNECTION_DENY_HOSTS/); // one bad address refuses the name
    expect(await refusal(policy, '2001:db8::5')).toMatch(/CONNECTION_DENY_HOSTS/);
    expect(await refusal(policy, 'DB.Corp.Example.')).toMatch(/CONNECTION_DENY_HOSTS/);
  });

  it('an allow list is strict, an allow entry lifts the server-mode refusal of loopback, and deny wins over allow', async () => {
    const policy = new TargetPolicy({ mode: 'server', storage: null, allow: '127.0.0.0/8,public.example', deny: '127.0.0.9', lookup: resolver(names) });
    expect(await refusal(policy, '127.0.0.1')).toBeNull();
    expect(await refusal(policy, 'public.example')).toBeNull();
    expect(await refusal(policy, '93.184.216.34')).toMatch(/not in CONNECTION_ALLOW_HOSTS/); // allowed by name only
    expect(await refusal(policy, '::1')).toMatch(/not in CONNECTION_ALLOW_HOSTS/);
    expect(await refusal(policy, '127.0.0.9')).toMatch(/CONNECTION_DENY_HOSTS/);
  });

  it('a denied name also denies the address it resolves to', async () => {
    const policy = new TargetPolicy({ mode: 'embedded', storage: null, deny: 'appdb', lookup: resolver({ appdb: ['172.18.0.2'] }) });
    expect(await refusal(policy, 'appdb')).toMatch(/CONNECTION_DENY_HOSTS/);
    expect(await refusal(policy, '172.18.0.2')).toMatch(/CONNECTION_DENY_HOSTS/);
  });

  it('the storage database is refused on its port and name only; on a remote storage host, by its addresses', async () => {
    const local = new TargetPolicy({ mode: 'server', allow: '0.0.0.0/0,::/0', storage: storageServerOf('postgres://aigis@localhost:5432/aigis'), lookup: resolver(names) });
    expect(await refusal(local, '127.0.0.3', 5432, 'aigis')).toMatch(/own storage/);
    expect(await refusal(local, '::1', 5432, 'AIGIS')).toMatch(/own storage/);
    expect(await refusal(local, '127.0.0.3', 5432, 'other')).toBeNull();
    expect(await refusal(local, '127.0.0.3', 5433, 'aigis')).toBeNull();
    const remote = new TargetPolicy({ mode: 'server', storage: storageServerOf('postgres://aigis@public.example/aigis'), lookup: resolver(names) });
    expect(await refusal(remote, '93.184.216.34', 5432, 'aigis')).toMatch(/own storage/);
    expect(await refusal(remote, 'public.example', 5432, 'aigis')).toMatch(/own storage/);
  });

  it('check() resolves once and returns the address to dial; checkSaved() accepts a name that does not resolve now', async () => {
    const calls: string[] = [];
    const policy = new TargetPolicy({ mode: 'embedded', storage: null, lookup: resolver(names, calls) });
    expect(await policy.check('public.example', 5432, 'db')).toEqual({ address: '93.184.216.34', family: 4 });
    expect(calls).toEqual(['public.example']);
    await expect(policy.checkSaved('no-such-host.invalid', 5432, 'db')).resolves.toBeUndefined();
    await expect(policy.check('no-such-host.invalid', 5432, 'db')).rejects.toBeInstanceOf(Error);
  });

  it('bad list entries are named at boot', () => {
    expect(() => parseHostRules('10.0.0.0/33, ok.example, bad host, 1.2.3.4/8/1')).toThrow('10.0.0.0/33, bad host, 1.2.3.4/8/1');
    expect(() => loadConfig({ CONNECTION_ALLOW_HOSTS: '::1/129', CONNECTION_DENY_HOSTS: 'a b' })).toThrow(/CONNECTION_ALLOW_HOSTS[\s\S]*CONNECTION_DENY_HOSTS/);
  });
});
