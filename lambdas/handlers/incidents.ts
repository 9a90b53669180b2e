/**
 * Incidents Lambda: listIncidents, searchComments, createIncident, getIncident, updateIncident, triageIncident,
 * requestIncidentClosure, reopenIncident, confirmIncidentResolution, listSocQueue, bulkUpdateSocQueue,
 * addIncidentComment, createIncidentAttachment, completeIncidentAttachment, listIncidentAttachments,
 * getIncidentAttachment
 * (route table rows with `handler: 'incidents'`). Validation and errors: `lambdas/http/api.ts`;
 * rules: `lambdas/domain/incidents.ts` (roles: docs/api.md#incident-roles; SLA: docs/sla.md).
 *
 * An incident's assignee is checked against the user pool (members of the tenant group and of `admin`,
 * docs/api.md#assignees): `cognitoUsers` on `config.userPoolId`, of which this function calls only
 * `listGroupMembers` (its role may call ListUsersInGroup on that pool and nothing else). The local stack and
 * the tests pass their own port in `deps.users`.
 *
 * Attachments (docs/api.md#attachments; lambdas/domain/attachments.ts) sign S3 requests for `config.attachments.bucket`
 * (`s3AttachmentStore`; the role may PutObject/GetObject on `tenants/*` of that bucket only); the local stack and
 * the tests pass their own store in `deps.attachments` (the local S3's key).
 */
import type { LambdaConfig } from '../config.js';
import { s3AttachmentStore, type AttachmentStore } from '../data/attachment-store.js';
import { cognitoUsers } from '../data/cognito-users.js';
import { attachmentDownload, completeAttachmentUpload, listAttachments, requestAttachmentUpload, type AttachmentDeps } from '../domain/attachments.js';
import {
  commentOnIncident,
  confirmIncidentResolution,
  fileIncident,
  listIncidents,
  listSocQueue,
  reopenIncident,
  requestIncidentClosure,
  triageIncident,
  updateIncident,
} from '../domain/incidents.js';
import { addInternalNote, incidentDetailFor } from '../domain/internal-notes.js';
import { applySocBulk } from '../domain/soc-bulk.js';
import type { GroupMembersPort } from '../domain/ports.js';
import { createApi, handlerFromEnv, type ApiHandler, type HandlerDeps, type Operations } from '../http/api.js';

/** The audit facts of a request (actor, request id, source IP, time). */
const auditOf = (i: { identity: Parameters<typeof updateIncident>[4]; requestId: string; sourceIp: string; now: Date }) => ({
  identity: i.identity,
  requestId: i.requestId,
  sourceIp: i.sourceIp,
  now: i.now,
});

/** Dependencies of the incidents Lambda: those of every handler, and the user pool's group listings. */
export interface IncidentsHandlerDeps extends HandlerDeps {
  /** Default `cognitoUsers` on `config.userPoolId` (`config.cognitoEndpoint` when set). */
  users?: GroupMembersPort;
  /** Default `s3AttachmentStore` on `config.attachments` (none configured: the attachment routes fail with 500). */
  attachments?: AttachmentStore;
}

/** A store that fails every call: the configuration names no attachments bucket. */
const noBucket: AttachmentStore = {
  presignUpload: () => Promise.reject(new Error('incidents Lambda: no attachments bucket configured')),
  head: () => Promise.reject(new Error('incidents Lambda: no attachments bucket configured')),
  presignDownload: () => Promise.reject(new Error('incidents Lambda: no attachments bucket configured')),
};

/** A pool that fails every listing: the configuration names no user pool (an assignee cannot be checked). */
const noUserPool: GroupMembersPort = { listGroupMembers: () => Promise.reject(new Error('incidents Lambda: no userPoolId configured')) };

/** The incidents operations; `users` bounds the assignees, `store` signs attachment transfers (see module doc). */
export function incidentOperations(users: GroupMembersPort, store: AttachmentStore = noBucket): Operations<'incidents'> {
  const att = (repo: { attachments: AttachmentDeps['attachments']; incidents: AttachmentDeps['incidents'] }): AttachmentDeps => ({ attachments: repo.attachments, incidents: repo.incidents, store });
  return {
    listIncidents: ({ repo, tenantId, query }) => listIncidents(repo.incidents, tenantId, query),
    // Public comments only: internal notes are never indexed nor read by it (docs/api.md#comment-search).
    searchComments: ({ repo, tenantId, query }) => repo.incidents.searchComments(tenantId, query),
    createIncident: (i) => fileIncident({ ...i.repo, users }, i.tenantId, i.body, i.identity, i.now, { key: i.headers['Idempotency-Key'], lambdaContext: i.lambdaContext }, auditOf(i)),
    getIncident: ({ repo, tenantId, params, identity }) => incidentDetailFor(repo.incidents, tenantId, params.id, identity),
    updateIncident: (i) => updateIncident(i.repo.incidents, i.tenantId, i.params.id, i.body, i.identity, i.now.toISOString(), auditOf(i), users, i.repo.tenants, i.repo.devices),
    triageIncident: (i) => triageIncident(i.repo, i.tenantId, i.params.id, i.body, i.identity, i.now.toISOString(), auditOf(i)),
    requestIncidentClosure: (i) => requestIncidentClosure(i.repo.incidents, i.tenantId, i.params.id, i.body.note, i.identity, i.now.toISOString(), auditOf(i)),
    reopenIncident: (i) => reopenIncident(i.repo.incidents, i.tenantId, i.params.id, i.body.reason, i.identity, i.now.toISOString(), auditOf(i)),
    confirmIncidentResolution: (i) => confirmIncidentResolution(i.repo.incidents, i.tenantId, i.params.id, i.body.note, i.identity, i.now.toISOString(), auditOf(i)),
    listSocQueue: ({ repo, query, identity, now }) => listSocQueue(repo.incidents, query, identity, now),
    bulkUpdateSocQueue: (i) => applySocBulk({ incidents: i.repo.incidents, tenants: i.repo.tenants, users }, i.body, i.identity, i.now, auditOf(i)),
    // `visibility: 'internal'`: a staff-only work note (lambdas/domain/internal-notes.ts, docs/api.md#internal-notes).
    addIncidentComment: (i) =>
      (i.body.visibility === 'internal' ? addInternalNote : commentOnIncident)(i.repo.incidents, i.tenantId, i.params.id, i.body.body, i.identity, i.now.toISOString(), auditOf(i)),
    createIncidentAttachment: (i) => requestAttachmentUpload(att(i.repo), i.tenantId, i.params.id, i.body, i.identity, i.now),
    completeIncidentAttachment: (i) => completeAttachmentUpload(att(i.repo), i.tenantId, i.params.id, i.params.attachmentId, auditOf(i)),
    listIncidentAttachments: (i) => listAttachments(att(i.repo), i.tenantId, i.params.id, i.query),
    getIncidentAttachment: (i) => attachmentDownload(att(i.repo), i.tenantId, i.params.id, i.params.attachmentId, i.now),
  };
}

/** The incidents API for an explicit configuration (local gateway, tests). */
export function createHandler(config: LambdaConfig, deps: IncidentsHandlerDeps = {}): ApiHandler {
  const users =
    deps.users ??
    (config.userPoolId ? cognitoUsers({ userPoolId: config.userPoolId, region: config.region, endpoint: config.cognitoEndpoint }) : noUserPool);
  const store =
    deps.attachments ??
    (config.attachments ? s3AttachmentStore({ bucket: config.attachments.bucket, region: config.region, endpoint: config.attachments.s3Endpoint }) : noBucket);
  return createApi('incidents', incidentOperations(users, store), config, deps);
}

/** API Gateway REST (v1 proxy) entry point; configuration from the environment on the first invocation. */
export const handler: ApiHandler = handlerFromEnv(createHandler);
