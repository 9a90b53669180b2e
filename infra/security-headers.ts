/**
 * The portal's HTTP security response headers — ONE definition used by both
 *  - the CloudFront response headers policy of the Hosting stack (`hosting-stack.ts`), and
 *  - the local stack's portal server (`scripts/local/stack.ts` → `serveWeb`),
 * so the browser suite exercises exactly the policy that production sends. Pure module (no aws-cdk-lib
 * import) so the local stack can load it cheaply.
 *
 * Content-Security-Policy (W3C CSP Level 3):
 *  - `default-src 'none'`, then only what the portal needs: scripts, styles, fonts, images and the
 *    manifest from the site itself (`'self'`); no inline scripts, no `eval` (the Vite build has none:
 *    `web/dist/index.html` loads one external module script; the browser suite's test/e2e/portal-csp.e2e.ts
 *    signs in under this policy and fails on any CSP violation);
 *  - `img-src 'self' data:` — Amplify UI's stylesheet draws icons as `data:` SVG images;
 *  - `connect-src 'self'` + the Cognito endpoints + the API origin(s) + the attachments bucket (the presigned
 *    POST of an upload, docs/api.md#attachments) (XHR/fetch only go there); in AWS the
 *    header can only name the region's `*.execute-api` hosts, and the deployed `index.html` narrows it to
 *    the stage's API with a meta policy ({@link stageConnectPolicy});
 *  - `frame-ancestors 'none'` (no clickjacking), `base-uri 'none'`, `form-action 'self'`, `object-src 'none'`;
 *  - `upgrade-insecure-requests` only when served over HTTPS (CloudFront), never locally (it would
 *    rewrite the local `http://127.0.0.1:<port>` API calls to https).
 * Plus: HSTS 2 years with sub-domains (RFC 6797; browsers ignore it on plain-HTTP responses, so sending it
 * locally is harmless), `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY` (legacy twin of
 * frame-ancestors), `Referrer-Policy: no-referrer`, a Permissions-Policy that disables powerful features
 * and `Cross-Origin-Opener-Policy: same-origin`.
 */

/** Origins the portal may contact besides itself. */
export interface PortalOrigins {
  /** Cognito endpoints, e.g. `https://cognito-idp.eu-west-1.amazonaws.com` (or the local user pool). */
  readonly cognito: readonly string[];
  /** API origin(s), e.g. `https://abc123.execute-api.eu-west-1.amazonaws.com` (or the local gateway). */
  readonly api: readonly string[];
  /** Served over HTTPS: adds `upgrade-insecure-requests` to the CSP. */
  readonly https: boolean;
  /**
   * The attachments bucket's origin(s), which the browser uploads to with a presigned POST (docs/api.md#attachments),
   * e.g. `https://vigia-dev-attachments-<account>-<region>.s3.<region>.amazonaws.com` (or the local S3).
   */
  readonly uploads?: readonly string[];
}

/** HSTS max-age in seconds (2 years, the hstspreload.org minimum is 1 year). */
export const HSTS_MAX_AGE_SECONDS = 63_072_000;
export const REFERRER_POLICY = 'no-referrer';
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';
export const CROSS_ORIGIN_OPENER_POLICY = 'same-origin';

/**
 * The Cognito and API origins of a deployed stage in `region`.
 *
 * The API origin is a regional wildcard (`https://*.execute-api.<region>.<suffix>`): the REST API id is
 * random and the Hosting stack (which owns this policy) is deployed before the Api stack, which needs the
 * CloudFront domain for CORS — naming the exact API host would be a cross-stack cycle. The wildcard still
 * limits fetches to API Gateway in the stage's region (scripts may only come from the site itself).
 * `cognito-identity` is included because the portal uses the identity pool (`identityPoolId`).
 * On a stage with federated sign-in the user pool's hosted domain is added: Amplify fetches its
 * `/oauth2/token` endpoint (docs/platform.md#federated-sign-in).
 * @param region AWS region (may be a CDK token such as `${AWS::Region}`)
 * @param urlSuffix `amazonaws.com` (or `amazonaws.com.cn`; may be a token)
 * @param oauthDomainPrefix the Cognito domain prefix of a federated stage (`<prefix>.auth.<region>.amazoncognito.com`)
 */
export function awsPortalOrigins(region: string, urlSuffix = 'amazonaws.com', oauthDomainPrefix?: string): PortalOrigins {
  return {
    cognito: [
      `https://cognito-idp.${region}.${urlSuffix}`,
      `https://cognito-identity.${region}.${urlSuffix}`,
      ...(oauthDomainPrefix ? [`https://${cognitoOAuthDomain(oauthDomainPrefix, region)}`] : []),
    ],
    api: [`https://*.execute-api.${region}.${urlSuffix}`],
    https: true,
  };
}

/** Host of a user pool's Cognito domain: `<prefix>.auth.<region>.amazoncognito.com` (Amazon Cognito developer guide, "Using the Amazon Cognito domain"). */
export function cognitoOAuthDomain(prefix: string, region: string): string {
  return `${prefix}.auth.${region}.amazoncognito.com`;
}

/** The Content-Security-Policy header value for the given origins (directives joined with `; `). */
export function contentSecurityPolicy(origins: PortalOrigins): string {
  const directives: Array<[string, ...string[]]> = [
    ['default-src', "'none'"],
    ['script-src', "'self'"],
    ['style-src', "'self'"],
    ['img-src', "'self'", 'data:'],
    ['font-src', "'self'"],
    ['manifest-src', "'self'"],
    ['connect-src', "'self'", ...origins.cognito, ...origins.api, ...(origins.uploads ?? [])],
    ['frame-ancestors', "'none'"],
    ['base-uri', "'none'"],
    ['form-action', "'self'"],
    ['object-src', "'none'"],
  ];
  if (origins.https) directives.push(['upgrade-insecure-requests']);
  return directives.map((d) => d.join(' ')).join('; ');
}

/**
 * The policy the deployed portal's `index.html` carries in a `<meta http-equiv="Content-Security-Policy">`:
 * `connect-src 'self'`, the Cognito endpoints and this stage's API base URL (with a trailing `/`, so only
 * the stage's path matches). A browser enforces every policy it is given, header and meta alike (W3C CSP
 * Level 3, "Enforcing multiple policies"), so the effective `connect-src` is the intersection: the response
 * header's regional `*.execute-api` wildcard (the Hosting stack cannot name the API, see
 * {@link awsPortalOrigins}) narrowed by this one to exactly this stage's API. The PortalDeployment stack,
 * deployed after the Api stack, writes it (docs/platform.md#content-security-policy).
 * @param apiBaseUrl the stage's invoke URL without a trailing slash (may hold CDK tokens)
 */
export function stageConnectPolicy(cognito: readonly string[], apiBaseUrl: string, uploads: readonly string[] = []): string {
  return ['connect-src', "'self'", ...cognito, `${apiBaseUrl}/`, ...uploads].join(' ');
}

/**
 * The origin the browser uploads attachments to: the stage's attachments bucket, virtual-hosted
 * (`https://<bucket>.s3.<region>.<urlSuffix>`, the URL lambdas/data/attachment-store.ts presigns POSTs for).
 * @param bucketName `vigia-<stage>-attachments-<account>-<region>` (infra/attachments-bucket.ts; may hold tokens)
 */
export function attachmentsUploadOrigin(bucketName: string, region: string, urlSuffix = 'amazonaws.com'): string {
  return `https://${bucketName}.s3.${region}.${urlSuffix}`;
}

/**
 * `html` with a `<meta http-equiv="Content-Security-Policy" content="…">` as the first element of `<head>`
 * (a meta policy only governs what follows it); without a `<head>` tag, right after the doctype (or at the
 * start), where the HTML parser opens the head implicitly.
 */
export function withCspMeta(html: string, policy: string): string {
  const head = /<head(\s[^>]*)?>/i.exec(html) ?? /^\s*<!doctype[^>]*>/i.exec(html);
  const at = head ? head.index + head[0].length : 0;
  const escaped = policy.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return `${html.slice(0, at)}\n    <meta http-equiv="Content-Security-Policy" content="${escaped}" />${html.slice(at)}`;
}

/** Structured settings, mapped 1:1 onto a CloudFront response headers policy and onto plain headers. */
export interface SecurityHeaderSettings {
  readonly contentSecurityPolicy: string;
  readonly hsts: { readonly maxAgeSeconds: number; readonly includeSubdomains: true };
  readonly contentTypeOptions: 'nosniff';
  readonly frameOptions: 'DENY';
  readonly referrerPolicy: typeof REFERRER_POLICY;
  /** Headers CloudFront has no typed field for (sent as custom headers). */
  readonly custom: Readonly<Record<string, string>>;
}

/** The security header settings for the given origins. */
export function securityHeaderSettings(origins: PortalOrigins): SecurityHeaderSettings {
  return {
    contentSecurityPolicy: contentSecurityPolicy(origins),
    hsts: { maxAgeSeconds: HSTS_MAX_AGE_SECONDS, includeSubdomains: true },
    contentTypeOptions: 'nosniff',
    frameOptions: 'DENY',
    referrerPolicy: REFERRER_POLICY,
    custom: {
      'Permissions-Policy': PERMISSIONS_POLICY,
      'Cross-Origin-Opener-Policy': CROSS_ORIGIN_OPENER_POLICY,
    },
  };
}

/** The settings as HTTP response headers (name → value), as the local portal server sends them. */
export function securityHeaders(settings: SecurityHeaderSettings): Record<string, string> {
  return {
    'Content-Security-Policy': settings.contentSecurityPolicy,
    'Strict-Transport-Security': `max-age=${settings.hsts.maxAgeSeconds}${settings.hsts.includeSubdomains ? '; includeSubDomains' : ''}`,
    'X-Content-Type-Options': settings.contentTypeOptions,
    'X-Frame-Options': settings.frameOptions,
    'Referrer-Policy': settings.referrerPolicy,
    ...settings.custom,
  };
}

/**
 * Headers for the local portal: the local user pool and gateway as exact origins, no HTTPS upgrade.
 * @param config the local `config.json` (`apiUrl`, `userPoolEndpoint` are absolute URLs; `oauth.domain` the
 *   local pool's HTTPS host, whose `/oauth2/token` Amplify fetches)
 */
export function localSecurityHeaders(
  config: { apiUrl: string; userPoolEndpoint?: string | undefined; oauth?: { domain: string } | undefined },
  /** The local S3's endpoint (attachments' uploads), when it runs. */
  s3Endpoint?: string,
): Record<string, string> {
  const cognito = [
    ...(config.userPoolEndpoint ? [new URL(config.userPoolEndpoint).origin] : []),
    ...(config.oauth ? [`https://${config.oauth.domain}`] : []),
  ];
  return securityHeaders(securityHeaderSettings({ cognito, api: [new URL(config.apiUrl).origin], https: false, ...(s3Endpoint ? { uploads: [new URL(s3Endpoint).origin] } : {}) }));
}
