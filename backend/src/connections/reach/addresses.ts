import net from 'node:net';
import os from 'node:os';

/**
 * The form an address is compared in: no IPv6 zone (`fe80::1%eth0`), and an IPv4-mapped IPv6 address
 * (`::ffff:127.0.0.1`, which reaches 127.0.0.1) as its IPv4 address.
 */
export function normaliseAddress(address: string): string {
  const bare = address.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped) return mapped[1];
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(bare);
  if (mappedHex) {
    const high = parseInt(mappedHex[1], 16);
    const low = parseInt(mappedHex[2], 16);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return bare;
}

// What reaches this machine itself: loopback, the unspecified address (connecting to 0.0.0.0 or :: lands on
// localhost) and the deprecated IPv4-compatible IPv6 form.
const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addSubnet('0.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addAddress('::', 'ipv6');
LOOPBACK.addSubnet('::', 96, 'ipv6');

const LINK_LOCAL = new net.BlockList();
LINK_LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6');

function inList(list: net.BlockList, address: string): boolean {
  const family = net.isIP(address);
  return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The machine's own interface addresses, read now (interfaces come and go). */
export function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) own.add(normaliseAddress(entry.address));
  }
  return own;
}

/** Whether a (normalised) address reaches this machine: loopback, unspecified, or one of its own addresses. */
export function isThisMachine(address: string, own: Set<string> = ownAddresses()): boolean {
  return inList(LOOPBACK, address) || own.has(address);
}

export function isLinkLocal(address: string): boolean {
  return inList(LINK_LOCAL, address);
}
