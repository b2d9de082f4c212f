import dns from 'node:dns';
import net from 'node:net';
import { isLinkLocalOrMetadata, isThisMachine, normaliseAddress, ownAddresses } from './addresses.js';
import { type HostRules, matchesAddress, matchesName, parseHostRules } from '../../config/host-rules.js';

export type Lookup = (host: string) => Promise<{ address: string; family: number }[]>;

/** The system resolver (getaddrinfo: /etc/hosts, DNS, numeric forms such as `127.1` or `2130706433`). */
export const systemLookup: Lookup = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/** Where the app's own storage database lives (server mode). */
export interface StorageServer {
  host: string;
  port: number;
  database: string;
}

export interface TargetPolicyOptions {
  mode: 'server' | 'embedded';
  allow?: string;
  deny?: string;
  storage: StorageServer | null;
  lookup?: Lookup;
}

/** A target the policy does not let us reach; `reason` is for the log, never for the user. */
export class TargetRefusedError extends Error {
  readonly code = 'EAIGIS_TARGET_REFUSED';
  constructor(readonly reason: string) {
    super(`connection target refused: ${reason}`);
    this.name = 'TargetRefusedError';
  }
}

export interface CheckedAddress {
  /** What the socket connects to: the address that was checked, never a name resolved again later. */
  address: string;
  family: 4 | 6;
}

/**
 * Decides which servers user connections may reach. Every resolved address of the host is checked (one bad
 * address refuses the name, so a DNS answer mixing a public and a private address cannot slip through):
 * never the app's own storage database under any name for its server; never a CONNECTION_DENY_HOSTS entry;
 * when CONNECTION_ALLOW_HOSTS is set, only its entries; in server mode, not this machine (loopback, its own
 * addresses) nor link-local or a cloud metadata service unless an allow entry covers the address; an IPv6 address
 * carrying an IPv4 one (mapped, NAT64, 6to4) is checked as that IPv4 address.
 */
export class TargetPolicy {
  private readonly allow: HostRules;
  private readonly deny: HostRules;
  private readonly lookup: Lookup;

  constructor(private readonly options: TargetPolicyOptions) {
    this.allow = parseHostRules(options.allow);
    this.deny = parseHostRules(options.deny);
    this.lookup = options.lookup ?? systemLookup;
  }

  /** Resolves the host once and checks every address; the caller connects to the returned address. */
  async check(host: string, port: number, database: string | null): Promise<CheckedAddress> {
    this.checkName(host);
    const addresses = await this.resolve(host);
    if (addresses.length === 0) throw new TargetRefusedError(`${host} did not resolve`);
    await this.checkAddresses(host, port, database, addresses.map((a) => a.address));
    const first = addresses[0];
    return { address: first.address, family: first.family === 6 ? 6 : 4 };
  }

  /**
   * The check when a connection is saved: a refused address is an error, a name that does not resolve now is
   * accepted (it is checked again at every connect, and refusing it would tell which internal names exist).
   */
  async checkSaved(host: string, port: number, database: string | null): Promise<void> {
    this.checkName(host);
    let addresses: { address: string }[];
    try {
      addresses = await this.resolve(host);
    } catch {
      return;
    }
    await this.checkAddresses(host, port, database, addresses.map((a) => a.address));
  }

  /** A name denied as written needs no resolving. */
  private checkName(host: string): void {
    if (matchesName(this.deny, host)) throw new TargetRefusedError(`${host} is listed in CONNECTION_DENY_HOSTS`);
  }

  private async checkAddresses(host: string, port: number, database: string | null, raw: string[]): Promise<void> {
    const own = ownAddresses();
    const addresses = raw.map(normaliseAddress);
    const [storage, denied] = await Promise.all([this.storageAddresses(own), this.deniedAddresses()]);
    for (const address of addresses) {
      if (storage && storage.matches(address) && port === storage.port && database?.toLowerCase() === storage.database) {
        throw new TargetRefusedError(`${host} (${address}:${port}/${database}) is the app's own storage database`);
      }
      if (matchesName(this.deny, host) || matchesAddress(this.deny, address) || denied.has(address)) {
        throw new TargetRefusedError(`${host} (${address}) is listed in CONNECTION_DENY_HOSTS`);
      }
      const allowed = matchesName(this.allow, host) || matchesAddress(this.allow, address);
      if (!this.allow.empty && !allowed) throw new TargetRefusedError(`${host} (${address}) is not in CONNECTION_ALLOW_HOSTS`);
      if (this.options.mode === 'server' && !allowed) {
        if (isThisMachine(address, own)) throw new TargetRefusedError(`${host} (${address}) is this machine (loopback or own address) in server mode`);
        if (isLinkLocalOrMetadata(address)) throw new TargetRefusedError(`${host} (${address}) is link-local or a cloud metadata service in server mode`);
      }
    }
  }

  private async resolve(host: string): Promise<{ address: string; family: number }[]> {
    const literal = host.replace(/^\[|\]$/g, '');
    const family = net.isIP(literal.replace(/%.*$/, ''));
    if (family) return [{ address: literal, family }];
    return this.lookup(host);
  }

  /** The storage server's addresses; when it runs on this machine, every name for this machine. */
  private async storageAddresses(own: Set<string>): Promise<{ matches(a: string): boolean; port: number; database: string } | null> {
    const storage = this.options.storage;
    if (!storage) return null;
    const addresses = (await this.resolve(storage.host).catch(() => [])).map((a) => normaliseAddress(a.address));
    const local = addresses.length === 0 || addresses.some((a) => isThisMachine(a, own));
    return {
      matches: (a) => (local && isThisMachine(a, own)) || addresses.includes(a),
      port: storage.port,
      database: storage.database.toLowerCase(),
    };
  }

  /** Deny entries given by name also deny what the name resolves to now (so its address is no way around it). */
  private async deniedAddresses(): Promise<Set<string>> {
    const names = this.deny.names.filter((n) => !n.startsWith('*.'));
    const answers = await Promise.all(names.map((n) => this.lookup(n).catch(() => [])));
    return new Set(answers.flat().map((a) => normaliseAddress(a.address)));
  }
}

/** The storage server of a DATABASE_URL (a Unix socket directory means this machine). */
export function storageServerOf(databaseUrl: string | undefined): StorageServer | null {
  if (!databaseUrl) return null;
  const url = new URL(databaseUrl);
  const hostParam = url.searchParams.get('host');
  let host = url.hostname.replace(/^\[|\]$/g, '') || hostParam || 'localhost';
  if (host.startsWith('/')) host = 'localhost';
  const user = decodeURIComponent(url.username) || 'postgres';
  return {
    host,
    port: Number(url.port || url.searchParams.get('port') || 5432),
    database: decodeURIComponent(url.pathname.replace(/^\//, '')) || user,
  };
}
