/**
 * The upload control of "Adjuntos" (docs/api.md#attachments): a button in the portal's language (the label of a
 * visually hidden file input, so not the browser's "Choose File") that, on a choice, checks the file
 * with the contract's rules (allow-list and 25 MiB, `checkAttachmentFile`) before asking anything, then declares
 * it (`POST …/attachments`), sends it straight to S3 with the presigned POST while showing the progress, and
 * confirms it (`POST …/complete`). Busy while it runs (the input disabled); a refusal — the API's code or S3's —
 * is said in words under the control, and the input is cleared for another try.
 */
import { useId, useState, type ChangeEvent } from 'react';
import { toApiError } from '../../shared/lib/api';
import { t as msg } from '../../shared/lib/messages';
import { checkAttachmentFile, uploadToS3, useAttachmentActions } from './attachments';
import { attachmentErrorText } from './attachment-errors';

/** `onStart`: a file was chosen (the caller clears what it said about the previous one); `onUploaded`: it is stored. */
export function AttachmentUploadButton({ incidentId, tenantId, onStart, onUploaded }: { incidentId: string; tenantId: string; onStart: () => void; onUploaded: (fileName: string) => void }) {
  const { declare, complete } = useAttachmentActions(incidentId, tenantId);
  const inputId = useId();
  const errorId = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onChange = async (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setError(null);
    onStart();
    const checked = checkAttachmentFile(file);
    if ('problem' in checked) {
      setError(attachmentErrorText(checked.problem, checked.problem));
      input.value = '';
      return;
    }
    setProgress(0);
    try {
      const { attachment, upload } = await declare({ fileName: file.name, contentType: checked.contentType, size: file.size });
      await uploadToS3(upload, new Blob([file], { type: checked.contentType }), setProgress);
      await complete(attachment.attachmentId);
      onUploaded(file.name);
    } catch (err) {
      const api = toApiError(err);
      setError(attachmentErrorText(api.code ?? api.message, api.message));
    } finally {
      setProgress(null);
      input.value = '';
    }
  };

  const busy = progress !== null;
  return (
    <div className="attachment-upload">
      {/* The browser's own file button speaks the browser's language ("Choose File"): the input is visually hidden
          (still focusable and labelled) and its label is the button, in the portal's language. */}
      <input
        id={inputId}
        type="file"
        className="visually-hidden"
        disabled={busy}
        aria-describedby={error ? errorId : undefined}
        aria-invalid={error ? true : undefined}
        onChange={(e) => void onChange(e)}
      />
      <label htmlFor={inputId} className="btn attachment-upload-button" aria-disabled={busy || undefined}>
        {msg('incidents.attachments.add')}
      </label>
      <p className="muted hint">{msg('incidents.attachments.hint')}</p>
      {busy && (
        <p role="status" className="attachment-progress">
          <progress max={1} value={progress} aria-label={msg('incidents.attachments.uploading')} /> {msg('incidents.attachments.uploadingPercent', { pct: String(Math.round(progress * 100)) })}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
