/**
 * The webhook SSRF guard's address classifier (lambdas/domain/network-address.ts) and the URL policy and
 * sender built on it (docs/notifications.md#webhook-url-policy):
 *
 *  - property: a random internal IPv4 address of EVERY blocked range, in EVERY textual encoding (plain,
 *    `::ffff:` mapped dotted and hex, `::a.b.c.d` compatible, 6to4 `2002:xxxx:xxxx::`, NAT64
 *    `64:ff9b::`, Teredo, expanded and zero-padded groups, uppercase, WHATWG's decimal/hex/octal IPv4
 *    forms) is refused, by the classifier and by `checkWebhookUrl` inside `https://[…]/`;
 *  - property: random public IPv4 (plain and mapped) and global-unicast IPv6 addresses are accepted;
 *  - trailing-dot and internal names are refused;
 *  - the sender checks IP literals itself (Node does not call `lookup` for a literal) and answers the generic
 *    `WEBHOOK_UNREACHABLE` without the socket detail (no `ECONNREFUSED`, no address or port).
 *
 * The reference ranges below are written out again from the IANA registries on purpose: the test does not
 * read the module's table.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postJson } from '../../../lambdas/data/notification-senders.js';
import { classifyAddress, isInternalHostname } from '../../../lambdas/domain/network-address.js';
import { checkWebhookUrl, WEBHOOK_UNREACHABLE, WebhookUrlRejected } from '../../../lambdas/domain/notifications.js';

/** IANA IPv4 Special-Purpose Address Registry (non-global) + multicast + 240/4: [first octets, prefix]. */
const INTERNAL_V4: Array<[number, number]> = [
  [ip4(0, 0, 0, 0), 8],
  [ip4(10, 0, 0, 0), 8],
  [ip4(100, 64, 0, 0), 10],
  [ip4(127, 0, 0, 0), 8],
  [ip4(169, 254, 0, 0), 16],
  [ip4(172, 16, 0, 0), 12],
  [ip4(192, 0, 0, 0), 24],
  [ip4(192, 0, 2, 0), 24],
  [ip4(192, 88, 99, 0), 24],
  [ip4(192, 168, 0, 0), 16],
  [ip4(198, 18, 0, 0), 15],
  [ip4(198, 51, 100, 0), 24],
  [ip4(203, 0, 113, 0), 24],
  [ip4(224, 0, 0, 0), 4],
  [ip4(240, 0, 0, 0), 4],
];

function ip4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
}
const inRange = (n: number, [net, prefix]: [number, number]) => Math.floor(n / 2 ** (32 - prefix)) === Math.floor(net / 2 ** (32 - prefix));
const isInternal = (n: number) => INTERNAL_V4.some((r) => inRange(n, r));
const dotted = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
const hi = (n: number) => (n >>> 16).toString(16);
const lo = (n: number) => (n & 0xffff).toString(16);
const pad = (s: string) => s.padStart(4, '0');

/** Every textual form of IPv4 `n` inside an IPv6 address (and the plain and WHATWG-legacy IPv4 forms). */
function encodings(n: number): string[] {
  const d = dotted(n);
  const forms = [
    d,
    `::ffff:${d}`,
    `::ffff:${hi(n)}:${lo(n)}`,
    `0:0:0:0:0:ffff:${hi(n)}:${lo(n)}`,
    `0000:0000:0000:0000:0000:ffff:${pad(hi(n))}:${pad(lo(n))}`,
    `::${d}`,
    `::${hi(n)}:${lo(n)}`,
    `0:0:0:0:0:0:${d}`,
    `2002:${hi(n)}:${lo(n)}::`,
    `2002:${hi(n)}:${lo(n)}::1`,
    `2002:${pad(hi(n))}:${pad(lo(n))}:0:0:0:0:1`,
    `64:ff9b::${d}`,
    `64:ff9b::${hi(n)}:${lo(n)}`,
    `64:ff9b:0:0:0:0:${hi(n)}:${lo(n)}`,
    `64:ff9b:1::${hi(n)}:${lo(n)}`,
    // Teredo: server address in bits 32–63, client address inverted in the last 32 bits (RFC 4380 §4).
    `2001:0:${hi(n)}:${lo(n)}::1`,
    `2001:0:4136:e378:8000:63bf:${((~n >>> 16) & 0xffff).toString(16)}:${(~n & 0xffff).toString(16)}`,
  ];
  return [...forms, ...forms.map((f) => f.toUpperCase())];
}

/** WHATWG URL's other spellings of an IPv4 host (decimal, hex, octal), which `new URL` turns into dotted form. */
const legacyHosts = (n: number) => [String(n), `0x${n.toString(16)}`, `0${n.toString(8)}`];

const internalV4 = fc
  .tuple(fc.constantFrom(...INTERNAL_V4), fc.integer({ min: 0, max: 0xffffffff }))
  .map(([[net, prefix], r]) => net + (prefix === 0 ? r : r % 2 ** (32 - prefix)));
const publicV4 = fc.integer({ min: 0, max: 0xffffffff }).filter((n) => !isInternal(n));
const aws = { allowLocalHttp: false };
const local = { allowLocalHttp: true };

describe('internal IPv4 addresses are refused in every encoding (property)', () => {
  it('classifier and URL policy', () => {
    fc.assert(
      fc.property(internalV4, (n) => {
        for (const form of encodings(n)) {
          expect(classifyAddress(form).public, form).toBe(false);
          const url = form.includes(':') ? `https://[${form}]/hook` : `https://${form}/hook`;
          expect(() => checkWebhookUrl(url, aws), url).toThrow(WebhookUrlRejected);
          // Locally only the loopback receivers pass, never these. Judged on the host as the URL parser normalises it:
          // `::0.0.0.1` and `::0:1` ARE `[::1]` (WHATWG URL serialises IPv6 hosts canonically), so they are loopback.
          if (!['127.0.0.1', '[::1]'].includes(new URL(url).hostname)) expect(() => checkWebhookUrl(url.replace('https:', 'http:'), local), url).toThrow(WebhookUrlRejected);
        }
        for (const h of legacyHosts(n)) expect(() => checkWebhookUrl(`https://${h}/hook`, aws), h).toThrow(WebhookUrlRejected);
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('the forms the issue names', () => {
    for (const url of [
      'https://[::ffff:169.254.169.254]/',
      'https://[::ffff:a9fe:a9fe]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:10.0.0.1]/',
      'https://[::127.0.0.1]/',
      'https://[fec0::1]/',
      'https://[FEC0:0:0:0:0:0:0:1]/',
      'https://[2002:a9fe:a9fe::]/',
      'https://[64:ff9b::169.254.169.254]/',
      'https://[2001:0:a9fe:a9fe::]/',
      'https://[fd00:ec2::254]/',
      'https://[fe80::a9fe:a9fe]/',
      'https://localhost./',
      'https://LOCALHOST../',
      'https://metadata.google.internal./computeMetadata/v1/',
      'https://metadata.google.internal/computeMetadata/v1/',
      'https://instance-data.ec2.internal/',
      'https://printer.local/',
      'https://intranet/',
      'https://1.0.0.127.in-addr.arpa/',
    ]) {
      expect(() => checkWebhookUrl(url, aws), url).toThrow(WebhookUrlRejected);
    }
  });
});

describe('public addresses are accepted (property)', () => {
  it('IPv4, plain and IPv4-mapped', () => {
    fc.assert(
      fc.property(publicV4, (n) => {
        for (const form of [dotted(n), `::ffff:${dotted(n)}`, `::FFFF:${hi(n)}:${lo(n)}`]) {
          expect(classifyAddress(form).public, form).toBe(true);
          expect(checkWebhookUrl(form.includes(':') ? `https://[${form}]/hook` : `https://${form}/hook`, aws)).toBeInstanceOf(URL);
        }
      }),
      { numRuns: 200 },
    );
  }, 30_000);

  it('IPv6 global unicast outside the special-purpose blocks', () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map((g) => g.toString(16));
    // 2400::–3ffe:ffff… (RIR space), 2001:200::–2001:ffff:… (outside 2001::/23 and 2001:db8::/32)
    const first = fc.oneof(fc.integer({ min: 0x2400, max: 0x3ffe }).map((g) => [g.toString(16)]), fc.integer({ min: 0x200, max: 0xffff }).filter((g) => g !== 0xdb8).map((g) => ['2001', g.toString(16)]));
    fc.assert(
      fc.property(first, fc.array(group, { minLength: 6, maxLength: 6 }), (head, rest) => {
        const ip = [...head, ...rest].slice(0, 8).join(':');
        const full = head.length === 1 ? `${ip}:${rest[0]}` : ip;
        expect(classifyAddress(full).public, full).toBe(true);
        expect(checkWebhookUrl(`https://[${full}]/hook`, aws)).toBeInstanceOf(URL);
      }),
      { numRuns: 200 },
    );
  }, 30_000);

  it('ordinary webhook hosts, with or without a trailing dot', () => {
    for (const url of ['https://hooks.slack.com/services/a/b/c', 'https://outlook.office.com./webhook/x', 'https://[2606:4700::1111]/x', 'https://8.8.8.8/x']) {
      expect(checkWebhookUrl(url, aws)).toBeInstanceOf(URL);
    }
    expect(isInternalHostname('hooks.slack.com.')).toBe(false);
  });
});

describe('the sender', () => {
  let server: http.Server;
  let port = 0;
  let hits = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits++;
      req.resume();
      res.writeHead(204).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('refuses an internal IP literal itself (Node skips `lookup` for literals): nothing is sent', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      for (const host of ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '127.0.0.1', 'localhost']) {
        const before = hits;
        await expect(postJson(new URL(`http://${host}:${port}/hook`), '{}', {}, { guard: true, timeoutMs: 2000 }), host).rejects.toThrow(WEBHOOK_UNREACHABLE);
        expect(hits, host).toBe(before);
      }
      // The same receiver unguarded (the local stack) is reached: the refusal above is the guard's.
      await expect(postJson(new URL(`http://[::ffff:127.0.0.1]:${port}/hook`), '{}', {}, { guard: false, timeoutMs: 2000 })).resolves.toBe(204);
    } finally {
      warn.mockRestore();
    }
  });

  it('a connection error answers WEBHOOK_UNREACHABLE only; the socket detail is logged, not returned', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const logged: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((line: string) => void logged.push(line));
    try {
      const err = await postJson(new URL(`http://127.0.0.1:${closedPort}/hook`), '{}', {}, { guard: false, timeoutMs: 2000 }).catch((e: unknown) => e as Error & { status?: number });
      expect(err).toMatchObject({ name: 'WebhookSendError', message: WEBHOOK_UNREACHABLE });
      expect((err as { status?: number }).status).toBeUndefined();
      expect(logged.join('\n')).toContain('ECONNREFUSED');
      expect(logged.join('\n')).not.toContain('/hook');
    } finally {
      warn.mockRestore();
    }
  });
});
