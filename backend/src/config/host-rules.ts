import net from 'node:net';

/** One operator list (CONNECTION_ALLOW_HOSTS / CONNECTION_DENY_HOSTS): host names and addresses / CIDRs. */
export interface HostRules {
  /** Lower-case names; `*.example.com` matches every name below example.com. */
  names: string[];
  addresses: net.BlockList;
  /** Whether the list had any entry (an empty allow list means "no allow list"). */
  empty: boolean;
}

const NAME = /^(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;

/** Parses a comma-separated list; throws with every bad entry named. */
export function parseHostRules(list: string | undefined): HostRules {
  const rules: HostRules = { names: [], addresses: new net.BlockList(), empty: true };
  const bad: string[] = [];
  for (const raw of (list ?? '').split(',')) {
    const entry = raw.trim().toLowerCase().replace(/\.$/, '');
    if (!entry) continue;
    rules.empty = false;
    const [address, prefix, extra] = entry.split('/');
    const family = net.isIP(address);
    if (family && extra === undefined) {
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) rules.addresses.addAddress(address, type);
      else if (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128)) rules.addresses.addSubnet(address, Number(prefix), type);
      else bad.push(raw.trim());
    } else if (prefix === undefined && NAME.test(entry)) {
      rules.names.push(entry);
    } else {
      bad.push(raw.trim());
    }
  }
  if (bad.length) throw new Error(`not a host name, address or CIDR: ${bad.join(', ')}`);
  return rules;
}

export function normaliseHostName(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '');
}

/** Whether a host name (as the user wrote it) is listed by name. */
export function matchesName(rules: HostRules, host: string): boolean {
  const name = normaliseHostName(host);
  return rules.names.some((entry) => (entry.startsWith('*.') ? name.endsWith(entry.slice(1)) : name === entry));
}

/** Whether an address (already normalised, see addresses.ts) lies in a listed address or CIDR. */
export function matchesAddress(rules: HostRules, address: string): boolean {
  const family = net.isIP(address);
  return family !== 0 && rules.addresses.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
