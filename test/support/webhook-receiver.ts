/**
 * A local webhook receiver for the notification tests: an HTTP server on 127.0.0.1 (a free port) that records
 * every request it gets and answers 200 `ok`, or 500 on the paths it is told to fail.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got: its path (with the query), headers and body (UTF-8). */
export interface ReceivedWebhook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A running receiver: its origin (`http://127.0.0.1:<port>`, no trailing slash) and how to stop it. */
export interface WebhookReceiver {
  url: string;
  /** Closes the server and its open connections; resolves once closed. */
  close(): Promise<void>;
}

/**
 * Starts a receiver that appends every request it gets to `into` (in arrival order, once its body has been
 * read) and answers 500 on the paths in `failingPaths` (read on every request, so a test may change it), 200
 * `ok` on the others.
 */
export async function startWebhookReceiver(into: ReceivedWebhook[], failingPaths: ReadonlySet<string> = new Set()): Promise<WebhookReceiver> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      into.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(failingPaths.has(req.url ?? '') ? 500 : 200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
