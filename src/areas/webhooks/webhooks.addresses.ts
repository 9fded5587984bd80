import { BlockList, isIP } from 'node:net';

/**
 * Where webhooks may not go: loopback, private, link-local, shared (CGNAT), multicast, reserved and
 * documentation ranges, so that an endpoint URL cannot reach the service's own network.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** An IPv6 address as its eight 16-bit groups; null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  // A trailing dotted IPv4 part counts as two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  const groups = [...left, ...(tail === null ? [] : Array<string>(missing).fill('0')), ...right];
  return groups.length === 8 ? groups.map((g) => parseInt(g, 16)) : null;
}

function ipv4From(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** The IPv4 address an IPv6 one carries (mapped, NAT64 or 6to4), if it carries one. */
function embeddedIpv4(groups: number[]): string | null {
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return ipv4From(groups[6], groups[7]);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return ipv4From(groups[6], groups[7]);
  if (groups[0] === 0x2002) return ipv4From(groups[1], groups[2]);
  return null;
}

/** True for an address on the public internet; false for private, loopback and other special ranges (and non-addresses). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NOT_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return false;
  const groups = ipv6Groups(address);
  if (!groups) return false;
  const carried = embeddedIpv4(groups);
  if (carried !== null) return isPublicAddress(carried);
  const plain = groups.map((g) => g.toString(16)).join(':');
  return !NOT_PUBLIC.check(plain, 'ipv6');
}

/**
 * A host as every check compares it: lower-case, IPv6 without brackets, without the one trailing
 * dot that makes a name fully qualified (`localhost.` is `localhost`). Names reach it as `URL`
 * writes them, IDNA (punycode) included, so one name has one spelling.
 */
export function normalizeHost(host: string): string {
  const lower = host.toLowerCase();
  if (lower.startsWith('[') && lower.endsWith(']')) return lower.slice(1, -1);
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** A URL's host as a resolver and WEBHOOK_ALLOW_HOSTS name it (see `normalizeHost`). */
export function hostOf(url: URL): string {
  return normalizeHost(url.hostname);
}

/**
 * What is wrong with where a URL points, whatever its host resolves to: a name with an empty
 * label (`a..b`, `.a`, two trailing dots), or port 0, which no service listens on.
 */
export function destinationShapeProblem(url: URL): string | null {
  const host = hostOf(url);
  if (host === '' || (isIP(host) === 0 && host.split('.').includes(''))) {
    return 'must name a host (no empty labels)';
  }
  if (url.port === '0') return 'must not use port 0 (no service listens there)';
  return null;
}

/** Names that always mean this machine, whatever a resolver says. */
export function isLocalName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.localdomain';
}
