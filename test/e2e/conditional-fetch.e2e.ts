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
 *
 * And the real portal on the local stack (docs/api.md#conditional-requests): the dashboard loads, its list
 * polls (`GET /incidents`, `GET /alarms`) carry `If-None-Match` on a refresh and get 304 while nothing changed
 * (the rows stay on screen), and an incident created meanwhile is answered 200 and shown on the next refresh.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../../scripts/lib/chromium.js';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { newPage, signIn, startE2e, VIEWPORTS, type E2eEnv } from '../support/e2e.js';

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

describe('the dashboard refreshes its lists with If-None-Match (local stack, Chromium)', () => {
  let env: E2eEnv;
  before(async () => {
    // Without the collector simulator (it raises and clears alarms at random, a change of the alarm list); the
    // stack's stand-in keeps the demo devices beating, as an idle dashboard's tenant does.
    env = await startE2e({ collector: false });
  });
  after(async () => {
    await env?.close();
  });

  it('loads, gets 304 for the unchanged incident and alarm lists on a refresh, and shows an incident created meanwhile', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    /** The dashboard's list requests to the API: path, the If-None-Match sent, the status answered. */
    const lists: { path: string; inm: string | null; status: number }[] = [];
    page.on('response', (r) => {
      const req = r.request();
      const url = new URL(r.url());
      if (req.method() === 'GET' && r.url().startsWith(env.stack.urls.api) && /\/(incidents|alarms)$/.test(url.pathname)) {
        lists.push({ path: url.pathname.replace(/^.*\//, '/'), inm: req.headers()['if-none-match'] ?? null, status: r.status() });
      }
    });
    await signIn(page, env.web, 'ana@acme.example', DEMO_PASSWORD);
    const updates = page.locator('section[aria-labelledby="latest-updates"]');
    await updates.locator('a').first().waitFor({ timeout: 30_000 });
    await page.locator('section[aria-labelledby="latest-alarms"] h2').waitFor();
    const before = await updates.innerText();
    const loaded = (p: string) => lists.filter((l) => l.path === p && l.status === 200);
    assert.ok(loaded('/incidents').length >= 1 && loaded('/alarms').length >= 1, `both lists loaded: ${JSON.stringify(lists)}`);
    // A refresh as SWR makes it when the window regains focus (its focus throttle is 5 s; the poll is every 60 s).
    const refresh = async () => {
      const n = lists.length;
      await page.waitForTimeout(5_500);
      await page.evaluate("window.dispatchEvent(new Event('focus'))");
      for (let i = 0; i < 50 && !(['/incidents', '/alarms'] as const).every((p) => lists.slice(n).some((l) => l.path === p)); i++) await page.waitForTimeout(200);
      return lists.slice(n);
    };
    const idle = await refresh();
    for (const p of ['/incidents', '/alarms']) {
      const r = idle.find((l) => l.path === p);
      assert.ok(r, `${p} refreshed: ${JSON.stringify(idle)}`);
      assert.match(r.inm ?? '', /^W\/"l1\./, `${p} sent If-None-Match`);
      assert.equal(r.status, 304, `${p} unchanged: 304`);
    }
    assert.equal(await updates.innerText(), before, 'the rows stay on screen after a 304');
    // An incident created meanwhile (through the API, as the signed-in user): the next refresh answers 200 and shows it.
    const title = `Cambio visto ${Date.now()}`;
    // Amplify's ID token from localStorage (the page's own session), sent as the portal's client sends it.
    const entries = (await page.evaluate('Object.entries(localStorage)')) as Array<[string, string]>;
    const token = entries.find(([k]) => k.endsWith('.idToken'))?.[1] ?? '';
    const created = await page.evaluate(
      async ({ api, title, token }) => {
        const r = await fetch(`${api}/incidents?tenant=acme`, { method: 'POST', headers: { Authorization: token, 'Content-Type': 'application/json' }, body: JSON.stringify({ title, description: 'Creado durante la prueba', severity: 'low' }) });
        return r.status;
      },
      { api: env.stack.urls.api.replace(/\/+$/, ''), title, token },
    );
    assert.equal(created, 201);
    const changed = await refresh();
    assert.equal(changed.find((l) => l.path === '/incidents')?.status, 200, `the incident list changed: ${JSON.stringify(changed)}`);
    assert.equal(changed.find((l) => l.path === '/alarms')?.status, 304, 'the alarm list did not');
    await updates.getByText(title).waitFor({ timeout: 10_000 });
    assert.deepEqual(problems, []);
    await context.close();
  });
});
