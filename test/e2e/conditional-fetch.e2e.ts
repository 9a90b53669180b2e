/**
 * How a conditional GET of `/summary` behaves in real Chromium, cross-origin with the API's CORS headers
 * (docs/api.md#summary, web/src/shared/lib/api.ts): an API origin that answers as the Lambdas do — `ETag`,
 * `Cache-Control: private, no-cache`, `Access-Control-Expose-Headers: ETag`, and 304 to a matching
 * `If-None-Match` — and a page on another origin that fetches as the portal's client does.
 *
 * - the page can read the `ETag` (exposed by CORS);
 * - a fetch that sends `If-None-Match` itself gets the 304 in JavaScript (the browser's HTTP cache is bypassed
 *   for a request that carries a conditional header), so the client must reuse its own copy — which it does;
 * - a plain fetch is also revalidated by the browser's HTTP cache (`no-cache`): Chromium sends the stored
 *   ETag itself and hands JavaScript a 200 with the stored body. The client does not rely on that (a cache
 *   may evict), it sends `If-None-Match` explicitly; both end in one 304 on the wire.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../../scripts/lib/chromium.js';

const ETAG = 'W/"s1.7.abc.0123456789ab"';
const BODY = JSON.stringify({ tenantId: 'acme', incidents: { open: 3 } });

let browser: Browser;
let api: http.Server;
let site: http.Server;
let apiUrl = '';
let siteUrl = '';
/** What the API origin received for GET /summary: the `If-None-Match` sent (or null) and the status answered. */
const seen: { ifNoneMatch: string | null; status: number }[] = [];

const listen = (s: http.Server) => new Promise<string>((r) => s.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)));

before(async () => {
  api = http.createServer((req, res) => {
    const cors = { 'Access-Control-Allow-Origin': siteUrl, Vary: 'Origin', 'Access-Control-Expose-Headers': 'ETag' };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...cors, 'Access-Control-Allow-Methods': 'GET', 'Access-Control-Allow-Headers': 'Authorization,If-None-Match', 'Access-Control-Max-Age': '600' });
      return res.end();
    }
    const inm = req.headers['if-none-match'] ?? null;
    const status = inm === ETAG ? 304 : 200;
    seen.push({ ifNoneMatch: typeof inm === 'string' ? inm : null, status });
    res.writeHead(status, { ...cors, ETag: ETAG, 'Cache-Control': 'private, no-cache', ...(status === 200 ? { 'Content-Type': 'application/json' } : {}) });
    res.end(status === 200 ? BODY : undefined);
  });
  site = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><title>t</title>');
  });
  apiUrl = await listen(api);
  siteUrl = await listen(site);
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  for (const s of [api, site]) {
    s?.closeAllConnections();
    s?.close();
  }
});

describe('conditional GET /summary in Chromium (cross-origin, CORS)', () => {
  it('exposes the ETag, passes a 304 to a fetch that sent If-None-Match, and revalidates a plain fetch itself', async () => {
    const page = await browser.newPage();
    await page.goto(siteUrl);
    const out = await page.evaluate(async (url) => {
      const headers = { Authorization: 'id.token' };
      const first = await fetch(url, { headers });
      const etag = first.headers.get('ETag');
      const firstBody = await first.text();
      const conditional = await fetch(url, { headers: { ...headers, 'If-None-Match': etag ?? '' } });
      const plain = await fetch(url, { headers });
      return { firstStatus: first.status, etag, firstBody, conditionalStatus: conditional.status, conditionalBody: await conditional.text(), plainStatus: plain.status, plainBody: await plain.text() };
    }, `${apiUrl}/summary`);
    assert.equal(out.firstStatus, 200);
    assert.equal(out.etag, ETAG, 'the ETag is readable cross-origin (Access-Control-Expose-Headers)');
    assert.equal(out.firstBody, BODY);
    assert.equal(out.conditionalStatus, 304, 'a fetch that sends If-None-Match itself sees the 304 (the client reuses its copy)');
    assert.equal(out.conditionalBody, '');
    assert.equal(out.plainStatus, 200, 'a plain fetch gets the stored body from the HTTP cache…');
    assert.equal(out.plainBody, BODY);
    assert.deepEqual(seen, [
      { ifNoneMatch: null, status: 200 },
      { ifNoneMatch: ETAG, status: 304 },
      { ifNoneMatch: ETAG, status: 304 }, // …after Chromium revalidated it with the stored ETag (no-cache)
    ]);
    await page.close();
  });
});
