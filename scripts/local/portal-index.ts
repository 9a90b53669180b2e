/**
 * The portal's `index.html` as the local servers deliver it: the build's file with the configuration written
 * in (`withInlinePortalConfig`, docs/portal.md#configuration-in-indexhtml), as the PortalDeployment stack
 * uploads it in AWS. Used by the local stack (`stack.ts`) and the benchmark's server (`scripts/bench/portal.ts`).
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { withInlinePortalConfig } from '../../lambdas/contract/portal-config-html.js';

/**
 * Whether a GET for `pathname` is answered with the portal's page: `/`, `/index.html` and the portal's routes
 * (paths without a file extension in their last segment, e.g. `/page/login`, `/ticket/update/INC-1`).
 * Anything else (assets, `/config.json`, `/favicon.svg`) is a file.
 */
export function isPortalPage(pathname: string): boolean {
  if (pathname === '/' || pathname === '/index.html') return true;
  return !path.posix.basename(pathname).includes('.');
}

/**
 * Answers `req` with `<distDir>/index.html` carrying `configJson` when it asks for a portal page (see
 * {@link isPortalPage}); the file is read on each request, so a rebuild while the server runs is picked up.
 *
 * @returns true when it answered; false for other requests, or when `index.html` is missing (the caller's
 *   static handler then answers, e.g. with its 404).
 */
export function servePortalPage(req: IncomingMessage, res: ServerResponse, distDir: string, configJson: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (!isPortalPage(pathname)) return false;
  let html: string;
  try {
    html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  } catch {
    return false;
  }
  const body = withInlinePortalConfig(html, configJson);
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache', 'Content-Length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
