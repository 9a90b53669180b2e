/**
 * Incident attachments in the portal (docs/api.md#attachments; issue 32 point 2): the hooks over the four routes
 * (`listIncidentAttachments`, `createIncidentAttachment`, `completeIncidentAttachment`, `getIncidentAttachment`),
 * the client-side check of a chosen file with the contract's own rules (allow-list `ATTACHMENT_CONTENT_TYPES`,
 * at most `ATTACHMENT_MAX_BYTES` = 25 MiB; lambdas/contract/attachments.ts), the upload straight to S3 with the
 * presigned POST (an XMLHttpRequest, for its progress events; the file never passes through the API), and the
 * size as people read it.
 */
import { ATTACHMENT_MAX_BYTES, attachmentTypeOfName, isAllowedAttachmentType, type AttachmentUpload } from '../../shared/lib/contract';
import { useApi, useApiSWRInfinite } from '../../shared/lib/api-context';
import { formatLocale } from '../../shared/lib/format';

/** Page size of an incident's attachment list. */
export const ATTACHMENT_PAGE_SIZE = 50;

/** The incident's attachments, oldest first, cursor-paginated (`GET /incidents/{id}/attachments`). */
export function useAttachmentList(incidentId: string, tenant: string) {
  return useApiSWRInfinite('listIncidentAttachments', { params: { id: incidentId }, query: { tenant, limit: ATTACHMENT_PAGE_SIZE } });
}

/** Declare, complete and download calls of one incident; each rejects with `ApiError`. */
export function useAttachmentActions(incidentId: string, tenant: string) {
  const api = useApi();
  const query = { tenant };
  return {
    declare: (body: { fileName: string; contentType: string; size: number }) => api.call('createIncidentAttachment', { params: { id: incidentId }, body, query }),
    complete: (attachmentId: string) => api.call('completeIncidentAttachment', { params: { id: incidentId, attachmentId }, query }),
    download: (attachmentId: string) => api.call('getIncidentAttachment', { params: { id: incidentId, attachmentId }, query }),
  };
}

/** Why a chosen file cannot be attached: the API's own codes, checked before asking it. */
export type FileProblem = 'ATTACHMENT_TYPE_NOT_ALLOWED' | 'ATTACHMENT_TOO_LARGE' | 'EMPTY_FILE';

/**
 * The content type to declare for `file` (its browser type, or the one of its extension when the browser gives
 * none or a generic one, e.g. `.log`, `.eml`), or the problem: off the allow-list, over 25 MiB, or empty.
 */
export function checkAttachmentFile(file: { name: string; type: string; size: number }): { contentType: string } | { problem: FileProblem } {
  const byName = attachmentTypeOfName(file.name);
  const contentType = isAllowedAttachmentType(file.type) ? file.type : (byName ?? file.type);
  if (!isAllowedAttachmentType(contentType)) return { problem: 'ATTACHMENT_TYPE_NOT_ALLOWED' };
  if (file.size > ATTACHMENT_MAX_BYTES) return { problem: 'ATTACHMENT_TOO_LARGE' };
  if (file.size < 1) return { problem: 'EMPTY_FILE' };
  return { contentType };
}

/** `bytes` as people read it: `820 B`, `12,5 KB`, `3,2 MB` (1 KB = 1,024 bytes; the reader's locale). */
export function formatFileSize(bytes: number): string {
  const n = (v: number) => v.toLocaleString(formatLocale(), { maximumFractionDigits: 1 });
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${n(bytes / 1024)} KB`;
  return `${n(bytes / (1024 * 1024))} MB`;
}

/**
 * Sends `file` to S3 with the presigned POST (`fields` first, then `file`, as S3 requires), reporting the sent
 * fraction (0..1) to `onProgress`. Resolves when S3 answers 2xx; rejects with an Error whose message is S3's
 * `<Code>` (`EntityTooLarge`, `AccessDenied`…) or `NETWORK`.
 */
export function uploadToS3(upload: AttachmentUpload['upload'], file: Blob, onProgress: (fraction: number) => void): Promise<void> {
  const form = new FormData();
  for (const [k, v] of Object.entries(upload.fields)) form.append(k, v);
  form.append('file', file);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', upload.url);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve();
      else reject(new Error(/<Code>([^<]+)<\/Code>/.exec(xhr.responseText)?.[1] ?? `HTTP_${xhr.status}`));
    };
    xhr.onerror = () => reject(new Error('NETWORK'));
    xhr.send(form);
  });
}
