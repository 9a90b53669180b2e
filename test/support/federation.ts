/**
 * Fixtures of the integration tests that sign in through a company identity provider on the local stack
 * (docs/local-emulation.md#federated-sign-in): the stack with federation, a cookie-keeping HTTP(S) client in
 * the browser's place, the portal's authorization request (code + PKCE) and the sign-in at the local OpenID
 * provider's login page. Used by test/integration/local-federation.test.ts and
 * test/integration/identity-providers-admin.test.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startLocalStack, type RunningLocalStack } from '../../scripts/local/stack.js';

/** The local stack with federation (no web server, collector or persistence), and the hosted endpoints' certificate. */
export interface FederationStack {
  stack: RunningLocalStack;
  /** The PEM certificate of the local user pool's hosted (OAuth) endpoints, self-signed. */
  ca: string;
  /** Stops the stack and removes its data folder. */
  stop(): Promise<void>;
}

/** Starts a `FederationStack` on free ports in a new temporary folder named `<prefix>…`. */
export async function startFederationStack(prefix: string): Promise<FederationStack> {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  const stack = await startLocalStack({
    dataDir,
    ports: { web: 0, api: 0, cognito: 0, cognitoInternal: 0, dynamodb: 0, cognitoOAuth: 0, idp: 0 },
    persist: false,
    collector: false,
    serveWeb: false,
    federation: true,
  });
  const ca = (JSON.parse(readFileSync(path.join(dataDir, 'cognito', 'hosted-tls.json'), 'utf8')) as { cert: string }).cert;
  return {
    stack,
    ca,
    async stop() {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One HTTP answer: status, the `Location` header resolved against the request URL, body text and `Set-Cookie` lines. */
export interface Answer {
  status: number;
  location: URL | null;
  body: string;
  cookies: string[];
}

/** A browser's part: a cookie jar and requests that follow no redirect, trusting `ca` (the pool's certificate). */
export interface Browser {
  jar: Map<string, string>;
  /** GET, or POST of `form` (application/x-www-form-urlencoded); `method` overrides. */
  request(url: string | URL, init?: { method?: string; form?: Record<string, string> }): Promise<Answer>;
}

/** A new `Browser` with an empty cookie jar. */
export function browser(ca: string): Browser {
  const jar = new Map<string, string>();
  return {
    jar,
    request(url, init = {}) {
      const u = new URL(url);
      const body = init.form ? new URLSearchParams(init.form).toString() : undefined;
      return new Promise((resolve, reject) => {
        const req = (u.protocol === 'https:' ? https : http).request(
          u,
          {
            method: init.method ?? (body ? 'POST' : 'GET'),
            ca,
            headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
          },
          (res) => {
            const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
            for (const c of cookies) {
              const [name, value] = c.split(';')[0]!.split('=') as [string, string];
              if (value) jar.set(name, value);
              else jar.delete(name);
            }
            let text = '';
            res.on('data', (d: Buffer) => (text += d.toString('utf8')));
            res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location ? new URL(res.headers.location, u) : null, body: text, cookies }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    },
  };
}

/**
 * The portal's side of a sign-in on `stack`'s hosted endpoints: a PKCE pair (S256) and the `/oauth2/authorize`
 * URL of the portal's app client (code flow, its scopes and redirect URI, state `client-state`); `params` add
 * to or replace the query's parameters (e.g. `idp_identifier`).
 */
export function authorizeRequest(stack: RunningLocalStack, params: Record<string, string> = {}): { verifier: string; url: string } {
  const oauth = stack.config.oauth!;
  const verifier = randomBytes(48).toString('base64url');
  const query = new URLSearchParams({
    client_id: stack.config.userPoolClientId,
    redirect_uri: oauth.redirectSignIn,
    response_type: 'code',
    scope: oauth.scopes.join(' '),
    state: 'client-state',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...params,
  });
  return { verifier, url: `https://${oauth.domain}/oauth2/authorize?${query}` };
}

/**
 * Signs in at the local OpenID provider from its authorization URL (where the pool's `/oauth2/authorize`
 * redirected): its login page, the form posted with `credentials`, redirects followed until the provider sends
 * the browser back to the pool. Returns the login page's HTML and the pool's `/oauth2/idpresponse` URL (not
 * yet requested); `idpresponse` is null when the provider did not send the browser back.
 */
export async function signInAtProvider(b: Browser, providerUrl: URL, credentials: { email: string; password: string }): Promise<{ page: string; idpresponse: URL | null }> {
  let r = await b.request(providerUrl);
  const page = await b.request(r.location!);
  const action = /action="([^"]+)"/.exec(page.body)![1]!;
  r = await b.request(new URL(action, r.location!), { form: credentials });
  while (r.location && !r.location.pathname.endsWith('/oauth2/idpresponse')) r = await b.request(r.location);
  return { page: page.body, idpresponse: r.location };
}
