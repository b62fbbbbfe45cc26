import { isIPv4, isIPv6 } from 'node:net';

/**
 * Address classification for the guarded fetcher: which IP addresses a user-supplied URL may
 * reach. Everything that is not ordinary public unicast is refused, following the IANA
 * special-purpose registries, plus the cloud metadata endpoints.
 */
export type AddressCategory =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'unique-local'
  | 'metadata'
  | 'this-network'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'reserved';

interface Range {
  readonly base: bigint;
  readonly mask: bigint;
  readonly category: AddressCategory;
}

const IPV4_BITS = 32;
const IPV6_BITS = 128;

function rangeOf(bits: number, base: bigint, prefix: number, category: AddressCategory): Range {
  const all = (1n << BigInt(bits)) - 1n;
  const mask = all ^ ((1n << BigInt(bits - prefix)) - 1n);
  return { base: base & mask, mask, category };
}

function v4Range(cidr: string, category: AddressCategory): Range {
  const [address, prefix] = cidr.split('/') as [string, string];
  return rangeOf(IPV4_BITS, ipv4ToBigInt(address), Number(prefix), category);
}

function v6Range(cidr: string, category: AddressCategory): Range {
  const [address, prefix] = cidr.split('/') as [string, string];
  return rangeOf(IPV6_BITS, ipv6ToBigInt(address), Number(prefix), category);
}

function firstMatch(ranges: readonly Range[], value: bigint): AddressCategory | undefined {
  return ranges.find((range) => (value & range.mask) === range.base)?.category;
}

// Ordered: the first match wins, so the metadata hosts come before the ranges that hold them.
const IPV4_BLOCKED: readonly Range[] = [
  v4Range('169.254.169.254/32', 'metadata'), // AWS, GCP, Azure, OpenStack, Oracle
  v4Range('169.254.170.2/32', 'metadata'), // AWS ECS task metadata
  v4Range('168.63.129.16/32', 'metadata'), // Azure wire server (a public address)
  v4Range('100.100.100.200/32', 'metadata'), // Alibaba Cloud
  v4Range('255.255.255.255/32', 'broadcast'),
  v4Range('0.0.0.0/8', 'this-network'),
  v4Range('10.0.0.0/8', 'private'),
  v4Range('100.64.0.0/10', 'cgnat'),
  v4Range('127.0.0.0/8', 'loopback'),
  v4Range('169.254.0.0/16', 'link-local'),
  v4Range('172.16.0.0/12', 'private'),
  v4Range('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  v4Range('192.0.2.0/24', 'documentation'),
  v4Range('192.88.99.0/24', 'reserved'), // 6to4 relay anycast
  v4Range('192.168.0.0/16', 'private'),
  v4Range('198.18.0.0/15', 'reserved'), // benchmarking
  v4Range('198.51.100.0/24', 'documentation'),
  v4Range('203.0.113.0/24', 'documentation'),
  v4Range('224.0.0.0/4', 'multicast'),
  v4Range('240.0.0.0/4', 'reserved'),
];

const IPV6_BLOCKED: readonly Range[] = [
  v6Range('::/128', 'this-network'),
  v6Range('::1/128', 'loopback'),
  v6Range('fd00:ec2::254/128', 'metadata'), // AWS IMDS over IPv6
  v6Range('::/96', 'reserved'), // deprecated IPv4-compatible addresses
  v6Range('64:ff9b:1::/48', 'private'), // local-use NAT64
  v6Range('100::/64', 'reserved'), // discard-only
  v6Range('2001::/32', 'reserved'), // Teredo
  v6Range('2001:db8::/32', 'documentation'),
  v6Range('2001::/23', 'reserved'), // IETF protocol assignments, benchmarking, ORCHID
  v6Range('3fff::/20', 'documentation'),
  v6Range('5f00::/16', 'reserved'), // SRv6 SIDs
  v6Range('fc00::/7', 'unique-local'),
  v6Range('fe80::/10', 'link-local'),
  v6Range('fec0::/10', 'private'), // deprecated site-local
  v6Range('ff00::/8', 'multicast'),
];

/** Only global unicast (2000::/3) is public; the embedded-IPv4 forms are judged by their IPv4. */
const IPV6_GLOBAL_UNICAST = v6Range('2000::/3', 'public');

/** Forms that carry an IPv4 address in their low or middle bits, judged as that IPv4 address. */
const IPV4_MAPPED = v6Range('::ffff:0:0/96', 'reserved');
const NAT64_WELL_KNOWN = v6Range('64:ff9b::/96', 'reserved');
const SIX_TO_FOUR = v6Range('2002::/16', 'reserved');

function ipv4ToBigInt(address: string): bigint {
  return address.split('.').reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);
}

function bigIntToIPv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/** Expands a valid IPv6 text (optionally with a trailing dotted IPv4) into its 128-bit value. */
function ipv6ToBigInt(address: string): bigint {
  let text = address;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = ipv4ToBigInt(tail);
    text = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeros = rest === undefined ? [] : Array(8 - headGroups.length - restGroups.length).fill('0');
  return [...headGroups, ...zeros, ...restGroups].reduce(
    (value, group) => (value << 16n) | BigInt(Number.parseInt(group, 16)),
    0n,
  );
}

function inRange(range: Range, value: bigint): boolean {
  return (value & range.mask) === range.base;
}

function classifyIPv4(address: string): AddressCategory {
  return firstMatch(IPV4_BLOCKED, ipv4ToBigInt(address)) ?? 'public';
}

function classifyIPv6(address: string): AddressCategory {
  const value = ipv6ToBigInt(address.split('%')[0] as string);
  if (inRange(IPV4_MAPPED, value) || inRange(NAT64_WELL_KNOWN, value)) {
    return classifyIPv4(bigIntToIPv4(value & 0xffffffffn));
  }
  if (inRange(SIX_TO_FOUR, value)) {
    return classifyIPv4(bigIntToIPv4((value >> 80n) & 0xffffffffn));
  }
  const blocked = firstMatch(IPV6_BLOCKED, value);
  if (blocked) return blocked;
  return inRange(IPV6_GLOBAL_UNICAST, value) ? 'public' : 'reserved';
}

/** What kind of address this is; anything but 'public' must not be fetched. Throws on non-IPs. */
export function classifyAddress(address: string): AddressCategory {
  if (isIPv4(address)) return classifyIPv4(address);
  if (isIPv6(address.split('%')[0] as string)) return classifyIPv6(address);
  throw new TypeError('not an IP address');
}

/**
 * Reads the old inet_aton spellings of IPv4 (what WHATWG URL parsing also accepts): 1 to 4
 * dot-separated parts, each decimal, octal (leading 0) or hex (0x); the last part fills the
 * remaining bytes. `2130706433`, `0x7f000001`, `017700000001` and `127.1` are all 127.0.0.1.
 * Returns the dotted-quad form, or undefined when the text is not such a number.
 */
export function parseLooseIPv4(text: string): string | undefined {
  const parts = text.endsWith('.') ? text.slice(0, -1).split('.') : text.split('.');
  if (parts.length === 0 || parts.length > 4) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : Number.parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = Number.parseInt(part.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) value = Number(part);
    else return undefined;
    numbers.push(value);
  }
  const last = numbers.pop() as number;
  if (numbers.some((n) => n > 255)) return undefined;
  if (last >= 256 ** (4 - numbers.length)) return undefined;
  const value = numbers.reduce((sum, n, i) => sum + BigInt(n) * 256n ** BigInt(3 - i), BigInt(last));
  return bigIntToIPv4(value);
}

/**
 * The IP address a URL hostname denotes literally, if it does (`[::1]`, `127.0.0.1`, `127.1`),
 * so that it is never sent to DNS; undefined for ordinary names.
 */
export function literalAddress(hostname: string): string | undefined {
  const unbracketed = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (isIPv6(unbracketed)) return unbracketed;
  return parseLooseIPv4(unbracketed);
}
