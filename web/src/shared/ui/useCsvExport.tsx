/**
 * A screen's CSV export and its progress line (docs/portal.md#csv-downloads). The progress is a status —
 * `preparing`, `downloaded` (with the row count and whether the file stopped at the export limit) or `failed`
 * (with the API's user message) — never a text: the line's text is rendered from the status in the current
 * language, and the buttons are disabled while it is `preparing`.
 */
import { useState } from 'react';
import { toApiError } from '../lib/api';
import { useT } from '../lib/messages';
import type { CsvVariant } from './csv';

/** What a finished export reports (both optional: an export that does not count its rows says nothing). */
export interface CsvExportOutcome {
  readonly count?: number;
  readonly truncated?: boolean;
}

/** The export's status; `null` before the first export. */
export type CsvExportStatus =
  | { readonly state: 'preparing' }
  | ({ readonly state: 'downloaded' } & CsvExportOutcome)
  | { readonly state: 'failed'; readonly userMessage: string };

/**
 * `run` builds and downloads the file for a variant and resolves with its outcome; `start(variant)` runs it and
 * keeps the status (never rejects). `busy` is true while a file is being prepared.
 */
export function useCsvExport(run: (variant: CsvVariant) => Promise<CsvExportOutcome | void>) {
  const [status, setStatus] = useState<CsvExportStatus | null>(null);
  const start = async (variant: CsvVariant): Promise<void> => {
    setStatus({ state: 'preparing' });
    try {
      const outcome = await run(variant);
      setStatus({ state: 'downloaded', ...(outcome ?? {}) });
    } catch (err) {
      setStatus({ state: 'failed', userMessage: toApiError(err).userMessage });
    }
  };
  return { status, busy: status?.state === 'preparing', start };
}

/**
 * The export's progress line (`role="status"`): "Preparando CSV…", the screen's own text for a download
 * (`downloaded`, default "CSV descargado.") or "No se pudo exportar: …"; nothing before the first export.
 */
export function CsvExportStatusLine({ status, downloaded }: { status: CsvExportStatus | null; downloaded?: (outcome: CsvExportOutcome) => string }) {
  const t = useT();
  if (!status) return null;
  const text =
    status.state === 'preparing'
      ? t('ui.csv.preparing')
      : status.state === 'failed'
        ? t('actions.exportFailed', { userMessage: status.userMessage })
        : (downloaded?.(status) ?? t('ui.csv.downloaded'));
  return (
    <p role="status" className="muted small">
      {text}
    </p>
  );
}
