import net from 'node:net';
import os from 'node:os';

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included), or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  if (!net.isIPv6(address)) return null;
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const first = parse(head);
  const last = tail === undefined ? [] : parse(tail);
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

function ipv4Of(high: number, low: number): string {
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * The IPv4 address an IPv6 address carries and reaches: IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated
 * `::ffff:0:a.b.c.d` (SIIT), the NAT64 prefixes `64:ff9b::/96` and `64:ff9b:1::/48` (RFC 6052, 8215; the gateway
 * connects to the IPv4 address in the last 32 bits) and 6to4 `2002:aabb:ccdd::/48`. Null for any other address.
 */
function embeddedIpv4(groups: number[]): string | null {
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return ipv4Of(groups[6]!, groups[7]!);
  if (zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0) return ipv4Of(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && (zeros(2, 6) || groups[2] === 1)) return ipv4Of(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return ipv4Of(groups[1]!, groups[2]!);
  return null;
}

/**
 * The form an address is compared in: no IPv6 zone (`fe80::1%eth0`), and an IPv6 address that carries an IPv4
 * address it reaches (`::ffff:127.0.0.1`, NAT64 `64:ff9b::a9fe:a9fe`, 6to4 `2002:a9fe:a9fe::`) as that IPv4 address.
 */
export function normaliseAddress(address: string): string {
  const bare = address.replace(/%.*$/, '').toLowerCase();
  const groups = ipv6Groups(bare);
  return (groups && embeddedIpv4(groups)) ?? bare;
}

// What reaches this machine itself: loopback, the unspecified address (connecting to 0.0.0.0 or :: lands on
// localhost) and the deprecated IPv4-compatible IPv6 form.
const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addSubnet('0.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addAddress('::', 'ipv6');
LOOPBACK.addSubnet('::', 96, 'ipv6');

const LINK_LOCAL_OR_METADATA = new net.BlockList();
LINK_LOCAL_OR_METADATA.addSubnet('169.254.0.0', 16, 'ipv4');
LINK_LOCAL_OR_METADATA.addSubnet('fe80::', 10, 'ipv6');
// Cloud metadata services outside link-local: AWS's IPv6 endpoint, Alibaba Cloud's, Azure's wire server.
LINK_LOCAL_OR_METADATA.addAddress('fd00:ec2::254', 'ipv6');
LINK_LOCAL_OR_METADATA.addAddress('100.100.100.200', 'ipv4');
LINK_LOCAL_OR_METADATA.addAddress('168.63.129.16', 'ipv4');

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

/** Link-local, or a cloud's metadata service: in server mode a connection would reach the host's credentials. */
export function isLinkLocalOrMetadata(address: string): boolean {
  return inList(LINK_LOCAL_OR_METADATA, address);
}
