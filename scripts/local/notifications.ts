/**
 * Notification delivery offline (docs/notifications.md#offline):
 *
 *  - the SES emulator `aws-ses-v2-local` (Amazon SES API v1/v2 `SendEmail` on one port, a web page listing the
 *    received mail at `/`, the mail as JSON at `GET /store`), run in this process;
 *  - the outbox poller: every `intervalMs` it calls the delivery consumer's `sweep` (the same
 *    `lambdas/handlers/notifications-consumer.ts` code the AWS scheduled sweep runs) over the local table, in
 *    place of the DynamoDB stream (the local engine has none), with `minAgeSeconds: 0`;
 *  - the daily digest timer: the digest job (`lambdas/triggers/notification-digest.ts`, in AWS an EventBridge
 *    rule at 06:00 UTC) once at start and then every `LOCAL_DIGEST_INTERVAL_MS` (1 h); each run sends the
 *    previous UTC day's digest to the users who have not had it, so the hourly runs send it once a day.
 *
 * One sweep runs at a time; a sweep that throws is logged and the next one tries again.
 */
import net from 'node:net';
import type { Server } from 'node:http';
import sesModule from 'aws-ses-v2-local';
import type { LambdaConfig } from '../../lambdas/config.js';
import type { TableRef } from '../../lambdas/data/table/client.js';
import type { GroupMembersPort } from '../../lambdas/domain/ports.js';
import type { SendersPort } from '../../lambdas/domain/notification-delivery.js';
import { notificationSenders } from '../../lambdas/data/notification-senders.js';
import { createConsumer, type Consumer } from '../../lambdas/handlers/notifications-consumer.js';
import { createDigestJob, type DigestJob } from '../../lambdas/triggers/notification-digest.js';
import { LOCAL_AWS_CREDENTIALS } from './config.js';

/** The emulator's start function (a CommonJS `exports.default`: Node's ESM import sees it one level down, tsx/vitest at the top). */
type StartSes = (config?: { port?: number; host?: string }) => Promise<Server>;
const sesEmulator: StartSes = ((sesModule as unknown as { default?: StartSes }).default ?? sesModule) as unknown as StartSes;

/** Port of the local SES emulator (`VIGIA_PORT_MAIL`). */
export const DEFAULT_MAIL_PORT = 8005;
/** From address of local e-mail (the emulator accepts any). */
export const LOCAL_EMAIL_FROM = 'Vigía <notificaciones@vigia.example>';

/** Fails with a one-line message when `port` is taken (the emulator would crash the process instead). */
async function assertFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' ? new Error(`SES emulator: port ${port} is already in use (stop the other process or set VIGIA_PORT_MAIL)`) : e),
    );
    s.listen(port, host, () => s.close(() => resolve()));
  });
}

/** Starts the SES emulator; `url` is its mail page (and API endpoint). */
export async function startMailEmulator(opts: { port: number; host: string }): Promise<{ url: string; stop(): Promise<void> }> {
  await assertFree(opts.port, opts.host);
  const server: Server = await sesEmulator({ port: opts.port, host: opts.host });
  const addr = server.address() as net.AddressInfo;
  return {
    url: `http://${opts.host}:${addr.port}`,
    stop: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

export interface PollerOptions {
  config: LambdaConfig;
  table: TableRef;
  users: GroupMembersPort;
  intervalMs?: number;
  senders?: SendersPort;
  log?: (line: string) => void;
}

/** The senders of the local stack: SES calls to the emulator (`notifications.sesEndpoint`), local webhooks allowed. */
export function localSenders(config: LambdaConfig): SendersPort {
  const n = config.notifications;
  // The emulator ignores signatures, but the signer needs credentials (a Lambda has its role's).
  return notificationSenders({ emailFrom: n.emailFrom ?? LOCAL_EMAIL_FROM, sesRegion: config.region, sesEndpoint: n.sesEndpoint, credentials: { ...LOCAL_AWS_CREDENTIALS }, allowLocalHttp: n.allowLocalWebhooks });
}

/** Starts the outbox poller (see module doc). */
export function startOutboxPoller(opts: PollerOptions): { consumer: Consumer; stop(): Promise<void> } {
  const senders = opts.senders ?? localSenders(opts.config);
  const consumer = createConsumer(opts.config, { table: opts.table, users: opts.users, senders });
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = consumer
      .sweep({ minAgeSeconds: 0 })
      .then((o) => {
        if (o.sent || o.failed || o.dead) opts.log?.(`notifications: ${o.sent} sent, ${o.failed} failed (retried later), ${o.dead} dead-lettered, ${o.completed} events done`);
      })
      .catch((e: unknown) => opts.log?.(`notifications: sweep failed: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => { running = null; });
  };
  const timer = setInterval(tick, opts.intervalMs ?? 2000);
  timer.unref();
  return {
    consumer,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** How often the local stack runs the digest job, ms (idempotent per user and day). */
export const LOCAL_DIGEST_INTERVAL_MS = 60 * 60_000;

/** Starts the daily digest timer (see module doc): a run now, then every `intervalMs`; one run at a time. */
export function startDigestTimer(opts: PollerOptions): { job: DigestJob; stop(): Promise<void> } {
  const job = createDigestJob(opts.config, { table: opts.table, users: opts.users, senders: opts.senders ?? localSenders(opts.config) });
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = job
      .run(new Date())
      .then((o) => {
        if (o.sent || o.failed || o.dead) opts.log?.(`daily digest of ${o.day}: ${o.sent} sent, ${o.failed} failed (retried at the next run), ${o.dead} dead-lettered`);
      })
      .catch((e: unknown) => opts.log?.(`daily digest failed: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => { running = null; });
  };
  tick();
  const timer = setInterval(tick, opts.intervalMs ?? LOCAL_DIGEST_INTERVAL_MS);
  timer.unref();
  return {
    job,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
