/**
 * How notifications leave (`SendersPort`, lambdas/domain/notification-delivery.ts):
 *
 *  - **E-mail**: Amazon SES API v2 `SendEmail` (`POST /v2/email/outbound-emails`, Simple content: subject,
 *    HTML and text parts, UTF-8, optional attachments) from the stage's verified identity, signed by aws-lite (SigV4, service
 *    `ses`, host `email.<region>.amazonaws.com`) like the other AWS calls of the Lambdas (no AWS SDK in the
 *    bundle). Locally the endpoint is the `aws-ses-v2-local` emulator (`scripts/local/notifications.ts`).
 *    The delivery id travels as the message tag `delivery` (SES event destinations report it).
 *  - **Webhooks**: one HTTPS POST of the rendered body, `Content-Type: application/json`, headers
 *    `X-Vigia-Delivery: <delivery id>` and, for `json` webhooks, `X-Vigia-Signature: t=…,v1=…`; 5 s timeout;
 *    redirects are not followed; 2xx = delivered, anything else = failed (retried with backoff).
 *    SSRF guard (not `allowLocalHttp`): the URL must pass `checkWebhookUrl`; an IP literal host is checked
 *    again here, and the connection's DNS lookup refuses the name if ANY resolved address is not public, at
 *    connect time, so a name that resolves inside the VPC, to the instance metadata service or to loopback
 *    is never contacted (no rebinding window); finally the connected socket's peer address is checked. One
 *    classifier decides all of these on the parsed address: `classifyAddress`
 *    (lambdas/domain/network-address.ts, docs/notifications.md#webhook-url-policy).
 *    A send without an HTTP answer (DNS, connection, TLS, timeout, refused address) fails with the generic
 *    `WEBHOOK_UNREACHABLE` and nothing else: the socket detail (`connect ECONNREFUSED 10.0.0.5:22`) goes to
 *    the function's log only, so neither "Enviar prueba" nor the deliveries list can be used as a port scanner.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { SendersPort } from '../domain/notification-delivery.js';
import { isIP } from 'node:net';
import { classifyAddress } from '../domain/network-address.js';
import { checkWebhookUrl, DELIVERY_ID_HEADER, SIGNATURE_HEADER, signWebhook, WEBHOOK_UNREACHABLE, type Webhook } from '../domain/notifications.js';
import { lazyAwsLite } from './table/aws-lite.js';

/** The IAM action the e-mail sender calls (granted on the configured identity only; infra/notifications.ts). */
export const SES_SEND_ACTIONS = ['ses:SendEmail'] as const;

/**
 * A webhook answered with a non-2xx status (`HTTP <status>`, `status` set), or could not be reached (message
 * `WEBHOOK_UNREACHABLE`, no `status`: the cause is in the log, never in the message).
 */
export class WebhookSendError extends Error {
  override readonly name = 'WebhookSendError';
  constructor(message: string, readonly status?: number) {
    super(message);
  }
}

export interface SendersOptions {
  /** `Vigía <no-reply@vigia.example>` or a bare address; must be (in) a verified SES identity. */
  emailFrom: string;
  /** Region of the SES identity. */
  sesRegion: string;
  /** SES endpoint override (the local emulator); default `https://email.<region>.amazonaws.com`. */
  sesEndpoint?: string | undefined;
  /** SES configuration set (bounce/complaint events), optional. */
  configurationSet?: string | undefined;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined;
  /** Allow `http://localhost` webhooks and skip the public-address check (local stack and tests only). */
  allowLocalHttp: boolean;
  /** Webhook timeout, ms (default 5,000). */
  timeoutMs?: number;
}

type RawAwsLite = (req: { service: string; method: string; path: string; headers: Record<string, string>; payload: string }) => Promise<{ statusCode: number; payload: unknown }>;

/** A `lookup` for http(s).request that fails when any resolved address is not public (`classifyAddress`). */
export function publicOnlyLookup(hostname: string, options: object, cb: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return cb(err, '', 0);
    const list = addresses as LookupAddress[];
    const bad = list.find((a) => !classifyAddress(a.address).public);
    if (bad || list.length === 0) {
      const e = new Error(`webhook host ${hostname} resolves to a non-public address ${bad?.address ?? '(none)'}: ${bad ? classifyAddress(bad.address).reason : 'no address'}`) as NodeJS.ErrnoException;
      e.code = 'EADDRNOTPUBLIC';
      return cb(e, '', 0);
    }
    if ((options as { all?: boolean }).all) return cb(null, list);
    cb(null, list[0]!.address, list[0]!.family);
  });
}

/**
 * Logs why a webhook could not be reached (host only: the path may carry the receiver's token) and returns
 * the generic error the caller stores or shows.
 */
function unreachable(url: URL, detail: unknown): WebhookSendError {
  console.warn(
    JSON.stringify({
      level: 'WARN',
      message: 'webhook unreachable',
      host: url.host,
      error: detail instanceof Error ? `${(detail as NodeJS.ErrnoException).code ?? detail.name}: ${detail.message}` : String(detail),
    }),
  );
  return new WebhookSendError(WEBHOOK_UNREACHABLE);
}

/**
 * POSTs `body` to `url`; resolves with the 2xx status. With `guard`: an IP literal host, every address a
 * name resolves to and the connected peer must be public (`classifyAddress`).
 * @throws WebhookSendError `HTTP <status>` (with `status`) or `WEBHOOK_UNREACHABLE` (detail logged only)
 */
export function postJson(url: URL, body: string, headers: Record<string, string>, opts: { guard: boolean; timeoutMs: number }): Promise<number> {
  const mod = url.protocol === 'https:' ? https : http;
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (opts.guard && isIP(literal) && !classifyAddress(literal).public) {
    return Promise.reject(unreachable(url, new Error(`literal ${literal} is not public: ${classifyAddress(literal).reason}`)));
  }
  return new Promise((resolve, reject) => {
    const req = mod.request(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'User-Agent': 'Vigia-Webhooks/1', 'Content-Length': String(Buffer.byteLength(body)), ...headers },
        timeout: opts.timeoutMs,
        ...(opts.guard ? { lookup: publicOnlyLookup as never } : {}),
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve(status);
          else reject(new WebhookSendError(`HTTP ${status}`, status));
        });
      },
    );
    if (opts.guard) {
      req.on('socket', (socket) => {
        socket.once('connect', () => {
          const peer = socket.remoteAddress;
          if (peer && !classifyAddress(peer).public) req.destroy(new Error(`connected peer ${peer} is not public`));
        });
      });
    }
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
    req.on('error', (e) => reject(e instanceof WebhookSendError ? e : unreachable(url, e)));
    req.end(body);
  });
}

/** The SES + HTTPS senders. */
export function notificationSenders(opts: SendersOptions): SendersPort {
  const endpoint = opts.sesEndpoint ?? `https://email.${opts.sesRegion}.amazonaws.com`;
  const connect = lazyAwsLite({ region: opts.sesRegion, endpoint, ...(opts.credentials ?? {}), responseContentType: 'application/json' });
  const timeoutMs = opts.timeoutMs ?? 5000;
  return {
    async sendEmail(msg) {
      const aws = (await connect()) as unknown as RawAwsLite;
      const charset = 'UTF-8';
      await aws({
        service: 'email', // aws-lite's name of SES (host email.<region>…; aws4 signs it as `ses`)
        method: 'POST',
        path: '/v2/email/outbound-emails',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({
          FromEmailAddress: opts.emailFrom,
          Destination: { ToAddresses: [msg.to] },
          Content: {
            Simple: {
              Subject: { Data: msg.subject, Charset: charset },
              Body: { Html: { Data: msg.html, Charset: charset }, Text: { Data: msg.text, Charset: charset } },
              // SES v2 attachments: base64 bytes, sent as `attachment` parts (the monthly report's PDF).
              ...(msg.attachments?.length
                ? { Attachments: msg.attachments.map((a) => ({ FileName: a.fileName, ContentType: a.contentType, ContentDisposition: 'ATTACHMENT', ContentTransferEncoding: 'BASE64', RawContent: Buffer.from(a.content).toString('base64') })) }
                : {}),
            },
          },
          EmailTags: [{ Name: 'delivery', Value: msg.deliveryId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 256) }],
          ...(opts.configurationSet ? { ConfigurationSetName: opts.configurationSet } : {}),
        }),
      });
    },
    async postWebhook(webhook: Webhook, body: string, deliveryId: string, now: Date) {
      const url = checkWebhookUrl(webhook.url, { allowLocalHttp: opts.allowLocalHttp });
      const headers: Record<string, string> = { [DELIVERY_ID_HEADER]: deliveryId };
      if (webhook.kind === 'json' && webhook.secret) headers[SIGNATURE_HEADER] = signWebhook(webhook.secret, body, Math.floor(now.getTime() / 1000));
      return postJson(url, body, headers, { guard: !opts.allowLocalHttp, timeoutMs });
    },
  };
}
