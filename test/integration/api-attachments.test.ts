/**
 * Incident attachments (docs/api.md#attachments; issue 32 point 2) over the REAL incidents handler on dynoxide
 * (IAM evaluated on every table call) with the REAL local S3 (scripts/local/s3.ts: s3rver behind the POST-policy
 * front): uploads are sent as a browser sends them, a plain `fetch` + `FormData` with the returned fields.
 *  - declare → upload straight to S3 → complete (HeadObject) → list → presigned GET fetches the same bytes,
 *    answered as a download; the audit entry `incident.attachment`;
 *  - a file larger than declared is refused by S3 itself (EntityTooLarge), complete then answers 409;
 *  - a type off the allow-list → 400 ATTACHMENT_TYPE_NOT_ALLOWED, over 25 MiB → 400 ATTACHMENT_TOO_LARGE,
 *    nothing stored; a viewer may list but not upload (403 ROLE_REQUIRED);
 *  - tenant isolation: globex (and an unknown incident) get 404 on all four routes; staff with TOTP reach acme's;
 *  - an internal note's id is refused as `commentId` (attachments never hang off a note).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACHMENT_MAX_BYTES, type Attachment, type AttachmentDownload, type AttachmentUpload } from '../../lambdas/contract/attachments.js';
import { buildPath, ROUTES, type OperationId } from '../../lambdas/contract/routes.js';
import type { AuditEntry, IncidentComment } from '../../lambdas/contract/schemas.js';
import { s3AttachmentStore } from '../../lambdas/data/attachment-store.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import { LOCAL_S3_CREDENTIALS, startLocalS3, type LocalS3 } from '../../scripts/local/s3.js';
import { bodyOf, type CallerSpec } from '../support/events.js';
import { useExampleApi } from '../support/example-api.js';
import { call } from '../support/in-process-api.js';

const BUCKET = 'vigia-test-attachments';
const ORIGIN = 'http://localhost:5173';
const ana: CallerSpec = { sub: 'u-ana', email: 'ana@acme.example', groups: ['acme'] };
const viewer: CallerSpec = { sub: 'u-vw', email: 'victor@acme.example', groups: ['acme', 'customer-viewer'] };
const globex: CallerSpec = { sub: 'u-gx', email: 'eva@globex.example', groups: ['globex'] };
const staff: CallerSpec = { sub: 'u-soc', email: 'soc@vigia.example', groups: ['admin'] };

const ctx = useExampleApi({ table: 'vigia-attachments' });
let s3: LocalS3;
let dir: string;
let incidents: ApiHandler;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'vigia-att-'));
  s3 = await startLocalS3({ port: 0, dataDir: dir, buckets: [BUCKET], origins: [ORIGIN] });
  const store = s3AttachmentStore({ bucket: BUCKET, region: 'eu-west-1', endpoint: s3.endpoint, credentials: LOCAL_S3_CREDENTIALS });
  incidents = ctx.api.handler('incidents', { attachments: store });
}, 60_000);

afterAll(async () => {
  await s3?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const row = (op: OperationId) => ROUTES.find((r) => r.operationId === op)!;
function send(op: OperationId, caller: CallerSpec, params: Record<string, string>, opts: { query?: Record<string, string>; body?: unknown } = {}) {
  const r = row(op);
  return call(incidents, { method: r.method, path: buildPath(r.path, params), query: opts.query ?? {}, caller, ...(opts.body !== undefined ? { body: opts.body } : {}) });
}

/** Sends `bytes` with the presigned POST as a browser form does (fields first, then `file`). */
async function upload(u: AttachmentUpload['upload'], bytes: Blob): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries(u.fields)) form.append(k, v);
  form.append('file', bytes, 'f');
  return fetch(u.url, { method: 'POST', body: form, headers: { Origin: ORIGIN } });
}

const INC = { id: 'INC-000001' };

describe('attachments', () => {
  let done: Attachment;

  it('declare → upload straight to S3 → complete → list → download the same bytes (audited)', async () => {
    const text = 'Nov 29 03:01 fw-1 DENY tcp 10.0.0.9:445\n';
    const created = await send('createIncidentAttachment', ana, INC, { body: { fileName: 'fw deny.log', contentType: 'text/plain', size: text.length } });
    expect(created.statusCode, created.body).toBe(201);
    const { attachment, upload: u } = bodyOf<AttachmentUpload>(created);
    expect(attachment).toMatchObject({ status: 'pending', size: text.length, uploadedBy: 'ana@acme.example', completedAt: null });
    expect(u.fields.key).toBe(`tenants/acme/incidents/INC-000001/${attachment.attachmentId}`);
    expect(u.fields['Content-Type']).toBe('text/plain');

    // Complete before the upload: nothing in the bucket yet.
    const early = await send('completeIncidentAttachment', ana, { ...INC, attachmentId: attachment.attachmentId });
    expect(early.statusCode).toBe(409);
    expect(bodyOf<{ code: string }>(early).code).toBe('ATTACHMENT_NOT_UPLOADED');

    const up = await upload(u, new Blob([text], { type: 'text/plain' }));
    expect([200, 204]).toContain(up.status);
    const completed = await send('completeIncidentAttachment', ana, { ...INC, attachmentId: attachment.attachmentId });
    expect(completed.statusCode, completed.body).toBe(200);
    done = bodyOf<Attachment>(completed);
    expect(done).toMatchObject({ status: 'available', size: text.length });

    const list = await send('listIncidentAttachments', viewer, INC);
    expect(list.statusCode, list.body).toBe(200);
    expect(bodyOf<{ items: Attachment[] }>(list).items.map((a) => a.attachmentId)).toContain(attachment.attachmentId);

    const dl = await send('getIncidentAttachment', viewer, { ...INC, attachmentId: attachment.attachmentId });
    expect(dl.statusCode, dl.body).toBe(200);
    const { url, expiresAt } = bodyOf<AttachmentDownload>(dl);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(60_000);
    const got = await fetch(url);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe(text);
    expect(got.headers.get('content-disposition')).toMatch(/^attachment; filename="fw deny.log"/);

    const audit = await ctx.api.repository.audit.listTenant('acme', { limit: 50 });
    expect((audit.items as AuditEntry[]).find((e) => e.action === 'incident.attachment')).toMatchObject({
      target: { type: 'incident', id: 'INC-000001' },
      after: { attachmentId: attachment.attachmentId, contentType: 'text/plain', size: text.length },
    });
  });

  it('a file larger than declared is refused by S3 itself (EntityTooLarge); complete then answers 409', async () => {
    const created = await send('createIncidentAttachment', ana, INC, { body: { fileName: 'big.txt', contentType: 'text/plain', size: 10 } });
    const { attachment, upload: u } = bodyOf<AttachmentUpload>(created);
    const up = await upload(u, new Blob(['x'.repeat(11)], { type: 'text/plain' }));
    expect(up.status).toBe(400);
    expect(await up.text()).toContain('<Code>EntityTooLarge</Code>');
    const c = await send('completeIncidentAttachment', ana, { ...INC, attachmentId: attachment.attachmentId });
    expect(c.statusCode).toBe(409);
    // A pending attachment has no download.
    const dl = await send('getIncidentAttachment', ana, { ...INC, attachmentId: attachment.attachmentId });
    expect(bodyOf<{ code: string }>(dl).code).toBe('ATTACHMENT_NOT_UPLOADED');
  });

  it('a type off the allow-list, a file over 25 MiB, a viewer: 4xx with a stable code and nothing stored', async () => {
    const before = await ctx.snapshot();
    const html = await send('createIncidentAttachment', ana, INC, { body: { fileName: 'x.html', contentType: 'text/html', size: 10 } });
    expect(html.statusCode).toBe(400);
    expect(bodyOf<{ code: string }>(html).code).toBe('ATTACHMENT_TYPE_NOT_ALLOWED');
    const big = await send('createIncidentAttachment', ana, INC, { body: { fileName: 'x.zip', contentType: 'application/zip', size: ATTACHMENT_MAX_BYTES + 1 } });
    expect(big.statusCode).toBe(400);
    expect(bodyOf<{ code: string; details: { maxBytes: number } }>(big)).toMatchObject({ code: 'ATTACHMENT_TOO_LARGE', details: { maxBytes: 26_214_400 } });
    const slash = await send('createIncidentAttachment', ana, INC, { body: { fileName: '../etc/passwd', contentType: 'text/plain', size: 10 } });
    expect(slash.statusCode).toBe(400);
    const byViewer = await send('createIncidentAttachment', viewer, INC, { body: { fileName: 'a.txt', contentType: 'text/plain', size: 10 } });
    expect(byViewer.statusCode).toBe(403);
    expect(await ctx.snapshot()).toBe(before);
  });

  it('tenant isolation: globex and an unknown incident get 404 on all four routes, nothing stored; staff with TOTP reach acme', async () => {
    const before = await ctx.snapshot();
    const att = { attachmentId: done.attachmentId };
    const cases: [OperationId, Record<string, string>, unknown][] = [
      ['createIncidentAttachment', INC, { fileName: 'a.txt', contentType: 'text/plain', size: 3 }],
      ['completeIncidentAttachment', { ...INC, ...att }, undefined],
      ['listIncidentAttachments', INC, undefined],
      ['getIncidentAttachment', { ...INC, ...att }, undefined],
    ];
    for (const [op, params, body] of cases) {
      for (const [caller, query] of [[globex, {}], [globex, { tenant: 'acme' }]] as const) {
        const r = await send(op, caller, params, { query, body });
        expect([403, 404], `${op} ${JSON.stringify(query)}: ${r.body}`).toContain(r.statusCode);
        if (!('tenant' in query)) expect(r.statusCode, `${op}: ${r.body}`).toBe(404);
      }
      const unknown = await send(op, ana, { ...params, id: 'INC-999999' }, { body });
      expect(unknown.statusCode, `${op} unknown incident: ${unknown.body}`).toBe(404);
    }
    expect(await ctx.snapshot()).toBe(before);
    const bySoc = await send('getIncidentAttachment', staff, { ...INC, ...att }, { query: { tenant: 'acme' } });
    expect(bySoc.statusCode, bySoc.body).toBe(200);
  });

  it('commentId must be a public comment of the incident: an internal note is refused', async () => {
    const note = await call(ctx.handlers.incidents, { method: 'POST', path: '/incidents/INC-000001/comments', query: { tenant: 'acme' }, caller: staff, body: { body: 'nota interna', visibility: 'internal' } });
    expect(note.statusCode, note.body).toBe(201);
    const r = await send('createIncidentAttachment', staff, INC, { query: { tenant: 'acme' }, body: { fileName: 'n.txt', contentType: 'text/plain', size: 3, commentId: bodyOf<IncidentComment>(note).id } });
    expect(r.statusCode, r.body).toBe(400);
    const pub = await call(ctx.handlers.incidents, { method: 'POST', path: '/incidents/INC-000001/comments', query: {}, caller: ana, body: { body: 'ver adjunto' } });
    const ok = await send('createIncidentAttachment', ana, INC, { body: { fileName: 'c.txt', contentType: 'text/plain', size: 3, commentId: bodyOf<IncidentComment>(pub).id } });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(bodyOf<AttachmentUpload>(ok).attachment.commentId).toBe(bodyOf<IncidentComment>(pub).id);
  });
});
