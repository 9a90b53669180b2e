/**
 * A customer's identity provider, offline: an OpenID Provider built with `oidc-provider` (the certified
 * implementation, docs/local-emulation.md#federated-sign-in) that plays e.g. Acme's Microsoft Entra ID for the
 * local user pool's federated sign-in. It has its own login page (e-mail + password), its own session cookie
 * and its own demo users; the local user pool is its only client (confidential, authorization code + PKCE S256,
 * its `/oauth2/idpresponse` as the only redirect URI).
 *
 * Consent is never asked (a company's own application, as an Entra ID administrator grants it for the whole
 * tenant): the first authorization creates the grant for `openid email profile`. The ID token carries `email`
 * and `email_verified` (`conformIdTokenClaims: false`), which the user pool maps into its user.
 * Signing keys are generated at each start (RS256; the pool reads them from the discovery document).
 */
import { generateKeyPair, exportJWK } from 'jose';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

/** A user of the local identity provider. */
export interface IdpUser {
  /** Stable subject (`sub`), e.g. `carla-acme-0001`. */
  readonly sub: string;
  readonly email: string;
  readonly name: string;
  readonly password: string;
}

/** The relying party the provider serves (the local user pool). */
export interface IdpClient {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Exact redirect URIs, e.g. `https://127.0.0.1:9231/oauth2/idpresponse`. */
  readonly redirectUris: readonly string[];
}

export interface LocalIdpOptions {
  /** Display name on the login page, e.g. `Acme Logística`. */
  readonly organisation: string;
  readonly users: readonly IdpUser[];
  readonly client: IdpClient;
  /** Port (0 = a free one) and interface (default 127.0.0.1). */
  readonly port: number;
  readonly host?: string;
}

export interface RunningIdp {
  /** The issuer, e.g. `http://127.0.0.1:9240` (discovery at `<issuer>/.well-known/openid-configuration`). */
  readonly issuer: string;
  stop(): Promise<void>;
}

/** Scopes the provider grants its client (and the only ones it knows besides `openid`). */
const SCOPES = 'openid email profile';

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The login page of interaction `uid` (an error line when the last attempt failed). */
function loginPage(organisation: string, uid: string, loginHint: string, error: string | null): string {
  return `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(organisation)} — inicio de sesión</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 24rem; margin: 10vh auto; padding: 1rem">
<h1>${escapeHtml(organisation)}</h1>
<p>Identidad corporativa (proveedor de identidad local)</p>
${error ? `<p role="alert" style="color: #b00020">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${encodeURIComponent(uid)}/login">
<p><label>Correo <input name="email" type="email" autocomplete="username" value="${escapeHtml(loginHint)}" required></label></p>
<p><label>Contraseña <input name="password" type="password" autocomplete="current-password" required></label></p>
<p><button type="submit">Entrar</button></p>
</form></body></html>`;
}

/** Constant-time comparison of two passwords. */
function samePassword(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Starts the provider on `host:port`.
 * @throws Error when the port is busy
 */
export async function startLocalIdp(opts: LocalIdpOptions): Promise<RunningIdp> {
  const host = opts.host ?? '127.0.0.1';
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' ? new Error(`identity provider: port ${opts.port} is already in use (stop the other process or set VIGIA_PORT_IDP)`) : e),
    );
    server.listen(opts.port, host, () => resolve());
  });
  const issuer = `http://${host}:${(server.address() as AddressInfo).port}`;
  const users = new Map(opts.users.map((u) => [u.sub, u]));
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: randomBytes(8).toString('hex') };

  const configuration: Configuration = {
    clients: [
      {
        client_id: opts.client.clientId,
        client_secret: opts.client.clientSecret,
        redirect_uris: [...opts.client.redirectUris],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: false,
    // Seconds; an interaction (the login page) 10 min, a session 8 h, codes 1 min, tokens 10 min.
    ttl: { Interaction: 600, Session: 8 * 3600, Grant: 8 * 3600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const user = users.get(sub);
      if (!user) return undefined;
      return { accountId: sub, claims: async () => ({ sub, email: user.email, email_verified: true, name: user.name }) };
    },
    // A first-party application: no consent screen (the organisation's administrator consented).
    async loadExistingGrant(ctx) {
      const clientId = ctx.oidc.client!.clientId;
      const session = ctx.oidc.session!;
      const existing = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(clientId);
      if (existing) {
        const grant = await ctx.oidc.provider.Grant.find(existing);
        if (grant) return grant;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId: session.accountId! });
      grant.addOIDCScope(SCOPES);
      await grant.save();
      session.grantIdFor(clientId, grant.jti);
      return grant;
    },
    renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = `<!doctype html><title>Error</title><h1>Error</h1><pre>${escapeHtml(JSON.stringify(out, null, 2))}</pre>`;
    },
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', issuer);
    const login = /^\/interaction\/([^/]+)\/login$/.exec(url.pathname);
    const show = /^\/interaction\/([^/]+)$/.exec(url.pathname);
    const run = async (): Promise<void> => {
      if (url.pathname === '/favicon.ico') {
        res.writeHead(204).end();
        return;
      }
      if (show && req.method === 'GET') {
        const details = await provider.interactionDetails(req, res);
        const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(loginPage(opts.organisation, details.uid, hint, null));
        return;
      }
      if (login && req.method === 'POST') {
        const details = await provider.interactionDetails(req, res);
        const form = await readForm(req);
        const email = (form.get('email') ?? '').trim().toLowerCase();
        const user = opts.users.find((u) => u.email.toLowerCase() === email);
        if (!user || !samePassword(form.get('password') ?? '', user.password)) {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(loginPage(opts.organisation, details.uid, email, 'Correo o contraseña incorrectos.'));
          return;
        }
        await provider.interactionFinished(req, res, { login: { accountId: user.sub } }, { mergeWithLastSubmission: false });
        return;
      }
      callback(req, res);
    };
    run().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end(`identity provider: ${(err as Error).message}`);
    });
  });

  return {
    issuer,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
