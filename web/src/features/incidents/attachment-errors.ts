/**
 * The words for an attachment refusal (docs/api.md#attachments): the API's stable codes and S3's own answers to
 * an upload (`EntityTooLarge`, `AccessDenied` for an expired or altered form), in the reader's language.
 */
import { ATTACHMENT_CONTENT_TYPES, ATTACHMENT_MAX_BYTES } from '../../shared/lib/contract';
import { t as msg } from '../../shared/lib/messages';
import { formatFileSize } from './attachments';

/** The text for `code` (an API error code, an S3 error code, `EMPTY_FILE`, `NETWORK`); `fallback` for any other. */
export function attachmentErrorText(code: string | null, fallback: string): string {
  switch (code) {
    case 'ATTACHMENT_TYPE_NOT_ALLOWED':
      return msg('incidents.attachments.typeNotAllowed', { types: ATTACHMENT_CONTENT_TYPES.join(', ') });
    case 'ATTACHMENT_TOO_LARGE':
    case 'EntityTooLarge':
      return msg('incidents.attachments.tooLarge', { max: formatFileSize(ATTACHMENT_MAX_BYTES) });
    case 'EMPTY_FILE':
      return msg('incidents.attachments.emptyFile');
    case 'ATTACHMENT_NOT_UPLOADED':
      return msg('incidents.attachments.notUploaded');
    case 'AccessDenied':
    case 'SignatureDoesNotMatch':
      return msg('incidents.attachments.uploadRefused');
    case 'NETWORK':
      return msg('incidents.attachments.network');
    default:
      return fallback;
  }
}
