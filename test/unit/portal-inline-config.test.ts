/**
 * The local servers' portal pages (`scripts/local/portal-index.ts`): the build's index.html with the
 * configuration written in (docs/portal.md#configuration-in-indexhtml), as the PortalDeployment stack uploads
 * it in AWS. (How the block is written and read back through a browser's parser:
 * `web/src/shared/lib/config-inline.test.ts`.)
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPortalPage, servePortalPage } from '../../scripts/local/portal-index.js';

const CONFIG = { region: 'eu-west-1', userPoolId: 'eu-west-1_abc', userPoolClientId: 'client', identityPoolId: '', apiUrl: 'http://127.0.0.1:3001', stage: 'local', allowSignUp: true, brandName: 'Vigía' };
const BUILT = readFileSync(path.join(import.meta.dirname, '../../web/index.html'), 'utf8');
/** The configuration block's JSON of a served page. */
const blockOf = (html: string): unknown => JSON.parse(/<script type="application\/json" id="vigia-config">(.*?)<\/script>/s.exec(html)![1]!);

describe('the local servers’ portal pages', () => {
  it('isPortalPage: /, /index.html and routes are pages; files are not', () => {
    for (const p of ['/', '/index.html', '/page/login', '/ticket/update/INC-0001', '/devices']) expect(isPortalPage(p), p).toBe(true);
    for (const p of ['/config.json', '/favicon.svg', '/assets/index-abc.js', '/openapi.json']) expect(isPortalPage(p), p).toBe(false);
  });

  it('servePortalPage answers page requests with the configuration and leaves the rest to the static handler', async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'vigia-portal-index-'));
    writeFileSync(path.join(dist, 'index.html'), BUILT);
    const server = http.createServer((req, res) => {
      if (servePortalPage(req, res, dist, JSON.stringify(CONFIG))) return;
      res.writeHead(404);
      res.end('static');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const page = await fetch(`${base}/page/login?next=%2F`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('cache-control')).toBe('no-cache');
      const html = await page.text();
      expect(blockOf(html)).toEqual(CONFIG);
      expect(html).not.toMatch(/href="\/config\.json"/);
      expect((await fetch(`${base}/assets/index-abc.js`)).status).toBe(404);
      expect((await fetch(`${base}/page/login`, { method: 'POST' })).status).toBe(404);
      // a rebuild while the server runs is picked up
      writeFileSync(path.join(dist, 'index.html'), BUILT.replace('Portal de clientes', 'Rebuilt'));
      expect(await (await fetch(`${base}/`)).text()).toContain('Rebuilt');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
