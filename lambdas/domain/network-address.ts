/**
 * The one address classifier of the webhook SSRF guard (docs/notifications.md#webhook-url-policy): decides
 * on the PARSED address, never on its spelling, whether an outgoing webhook may connect to it. Used by the
 * URL policy when a webhook is saved (`checkWebhookUrl`, lambdas/domain/notifications.ts) and by the sender
 * at send time on an IP literal and on every address a name resolves to
 * (lambdas/data/notification-senders.ts).
 *
 * Rules (the ranges are Node `net.BlockList`s, so any textual form Node parses — `::ffff:a9fe:a9fe`,
 * `::FFFF:169.254.169.254`, `0:0:0:0:0:ffff:…` — is the same address):
 *  - **IPv4**: public unless in the IANA IPv4 Special-Purpose Address Registry's non-global ranges or
 *    multicast/reserved space ({@link BLOCKED_IPV4}; RFC 6890,
 *    https://www.iana.org/assignments/iana-ipv4-special-registry/), which covers private (RFC 1918),
 *    loopback, link-local (the instance metadata service 169.254.169.254), carrier-grade NAT, documentation,
 *    benchmarking, 6to4 relay anycast, multicast and 240/4;
 *  - **IPv6**: an allow-list. Only global unicast `2000::/3` can be public (IANA IPv6 Address Space,
 *    https://www.iana.org/assignments/ipv6-address-space/), minus the special-purpose blocks inside it
 *    ({@link BLOCKED_IPV6_IN_GLOBAL}: `2001::/23` IETF protocol assignments, Teredo `2001::/32` included,
 *    `2001:db8::/32` and `3fff::/20` documentation, 6to4 `2002::/16`; RFC 6890,
 *    https://www.iana.org/assignments/iana-ipv6-special-registry/). Everything else is refused: `::`, `::1`,
 *    IPv4-compatible `::a.b.c.d` (deprecated, RFC 4291 §2.5.5.1), NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`
 *    (RFC 6052, RFC 8215), discard `100::/64`, unique-local `fc00::/7`, link-local `fe80::/10`, site-local
 *    `fec0::/10` (deprecated, RFC 3879), multicast `ff00::/8`;
 *  - an **IPv4-mapped** address `::ffff:a.b.c.d` (RFC 4291 §2.5.5.2) is its IPv4 address: public only if
 *    that IPv4 address is. Tunnel and translation forms that embed an IPv4 address (6to4, NAT64, Teredo,
 *    compatible) are refused whatever they embed; {@link classifyAddress} reports the embedded address for
 *    the log.
 */
import { BlockList, isIP } from 'node:net';

/** Non-public IPv4 ranges `[network, prefix length, name]` (IANA IPv4 Special-Purpose Address Registry). */
export const BLOCKED_IPV4: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, '"this network" (RFC 791)'],
  ['10.0.0.0', 8, 'private (RFC 1918)'],
  ['100.64.0.0', 10, 'carrier-grade NAT (RFC 6598)'],
  ['127.0.0.0', 8, 'loopback (RFC 1122)'],
  ['169.254.0.0', 16, 'link-local, instance metadata (RFC 3927)'],
  ['172.16.0.0', 12, 'private (RFC 1918)'],
  ['192.0.0.0', 24, 'IETF protocol assignments (RFC 6890)'],
  ['192.0.2.0', 24, 'documentation TEST-NET-1 (RFC 5737)'],
  ['192.88.99.0', 24, '6to4 relay anycast (RFC 7526)'],
  ['192.168.0.0', 16, 'private (RFC 1918)'],
  ['198.18.0.0', 15, 'benchmarking (RFC 2544)'],
  ['198.51.100.0', 24, 'documentation TEST-NET-2 (RFC 5737)'],
  ['203.0.113.0', 24, 'documentation TEST-NET-3 (RFC 5737)'],
  ['224.0.0.0', 4, 'multicast (RFC 5771)'],
  ['240.0.0.0', 4, 'reserved and limited broadcast (RFC 1112, RFC 919)'],
];

/** Special-purpose blocks inside global unicast `2000::/3` that are refused (IANA IPv6 Special-Purpose Registry). */
export const BLOCKED_IPV6_IN_GLOBAL: ReadonlyArray<readonly [string, number, string]> = [
  ['2001::', 23, 'IETF protocol assignments, Teredo 2001::/32 included (RFC 2928, RFC 4380)'],
  ['2001:db8::', 32, 'documentation (RFC 3849)'],
  ['2002::', 16, '6to4 (RFC 3056)'],
  ['3fff::', 20, 'documentation (RFC 9637)'],
];

/** One `BlockList` per range, so a refusal can name its range in the log. */
const rules = (ranges: ReadonlyArray<readonly [string, number, string]>, family: 'ipv4' | 'ipv6'): Array<[BlockList, string]> =>
  ranges.map(([net, prefix, name]) => {
    const list = new BlockList();
    list.addSubnet(net, prefix, family);
    return [list, name];
  });
const ipv4Rules = rules(BLOCKED_IPV4, 'ipv4');
const ipv6Rules = rules(BLOCKED_IPV6_IN_GLOBAL, 'ipv6');
const [[globalUnicast]] = rules([['2000::', 3, 'global unicast']], 'ipv6') as [[BlockList, string]];
const [[mapped]] = rules([['::ffff:0:0', 96, 'IPv4-mapped']], 'ipv6') as [[BlockList, string]];

/** The verdict on one address. `embeddedIpv4`: the IPv4 address a mapped/compatible/6to4/NAT64 form carries. */
export interface AddressVerdict {
  public: boolean;
  /** Why it is refused (English, for the server log only), absent when public. */
  reason?: string;
  embeddedIpv4?: string;
}

/**
 * The eight 16-bit groups of an IPv6 address Node accepts (`isIP(ip) === 6`; a `%zone` suffix is ignored),
 * the dotted-quad tail of `::ffff:1.2.3.4` / `::1.2.3.4` included. Returns null for anything else.
 */
export function ipv6Groups(ip: string): number[] | null {
  const bare = ip.replace(/^\[|\]$/g, '').split('%')[0]!;
  if (isIP(bare) !== 6) return null;
  let text = bare.toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const h = part(head);
  const t = part(tail);
  const groups = tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

const quadOf = (hi: number, lo: number): string => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/** The IPv4 address carried by a mapped, compatible, NAT64 (`/96`) or 6to4 IPv6 address, else undefined. */
export function embeddedIpv4(groups: readonly number[]): string | undefined {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const zeros = (xs: number[]) => xs.every((x) => x === 0);
  if (zeros([g0, g1, g2, g3, g4]) && g5 === 0xffff) return quadOf(g6, g7);
  if (zeros([g0, g1, g2, g3, g4, g5]) && (g6 !== 0 || g7 > 1)) return quadOf(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && zeros([g2, g3, g4, g5])) return quadOf(g6, g7);
  if (g0 === 0x2002) return quadOf(g1, g2);
  return undefined;
}

/**
 * Classifies one IP address (v4 or v6, any textual form Node parses, brackets allowed). Anything that is
 * not an IP address is not public (the caller resolves names first).
 */
export function classifyAddress(ip: string): AddressVerdict {
  const bare = ip.replace(/^\[|\]$/g, '').split('%')[0]!;
  const v = isIP(bare);
  if (v === 4) {
    const hit = ipv4Rules.find(([list]) => list.check(bare, 'ipv4'));
    return hit ? { public: false, reason: `IPv4 ${hit[1]}` } : { public: true };
  }
  if (v !== 6) return { public: false, reason: 'not an IP address' };
  const groups = ipv6Groups(bare);
  if (!groups) return { public: false, reason: 'unparseable IPv6 address' };
  const embedded = embeddedIpv4(groups);
  const withEmbedded = (r: AddressVerdict): AddressVerdict => (embedded ? { ...r, embeddedIpv4: embedded } : r);
  if (mapped.check(bare, 'ipv6')) {
    const inner = classifyAddress(embedded ?? '0.0.0.0');
    return withEmbedded(inner.public ? { public: true } : { public: false, reason: `IPv4-mapped ${inner.reason ?? ''}`.trim() });
  }
  if (!globalUnicast.check(bare, 'ipv6')) return withEmbedded({ public: false, reason: 'IPv6 outside global unicast 2000::/3' });
  const hit = ipv6Rules.find(([list]) => list.check(bare, 'ipv6'));
  if (hit) return withEmbedded({ public: false, reason: `IPv6 ${hit[1]}` });
  return { public: true };
}

/** Whether `ip` may be contacted by a webhook (see module doc). */
export const isPublicAddress = (ip: string): boolean => classifyAddress(ip).public;

/**
 * Special-use and internal DNS names a webhook host may not be (after removing trailing dots, so
 * `localhost.` and `metadata.google.internal.` are the same names): `localhost` and `*.localhost`
 * (RFC 6761 §6.3), `*.local` (mDNS, RFC 6762), `*.internal` (private use, ICANN 2024; GCP metadata is
 * `metadata.google.internal`), `*.home.arpa` (RFC 8375) and every `*.arpa`, `*.localdomain`, `*.test` and
 * `*.invalid` (RFC 6761), and single-label names (resolved through the VPC's search domains).
 */
export function isInternalHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.+$/, '');
  if (h === '' || !h.includes('.')) return true;
  return /(^|\.)(localhost|local|internal|arpa|localdomain|test|invalid)$/.test(h);
}
