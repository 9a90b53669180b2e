/**
 * One attachment's download (docs/api.md#attachments): asks the API for a presigned GET (valid 60 s, so it is
 * fetched on the click, never rendered in advance) and navigates to it; S3 answers it as a download
 * (`Content-Disposition: attachment`), so the page stays. A refusal is shown next to the button.
 */
import { useState } from 'react';
import type { Attachment } from '../../shared/lib/contract';
import { toApiError } from '../../shared/lib/api';
import { t as msg } from '../../shared/lib/messages';
import { useAttachmentActions } from './attachments';
import { attachmentErrorText } from './attachment-errors';

export function AttachmentDownloadButton({ incidentId, tenantId, attachment }: { incidentId: string; tenantId: string; attachment: Attachment }) {
  const { download } = useAttachmentActions(incidentId, tenantId);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onClick = async () => {
    setBusy(true);
    setError(null);
    try {
      const { url } = await download(attachment.attachmentId);
      window.location.assign(url);
    } catch (e) {
      setError(attachmentErrorText(toApiError(e).code, toApiError(e).message));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="link-button" onClick={() => void onClick()} disabled={busy} aria-label={msg('incidents.attachments.downloadNamed', { name: attachment.fileName })}>
        {busy ? msg('incidents.attachments.downloading') : msg('incidents.attachments.download')}
      </button>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
