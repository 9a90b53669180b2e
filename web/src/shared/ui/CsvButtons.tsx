/**
 * The two CSV download buttons of an export (docs/portal.md#csv-downloads): the standard file (`label`,
 * e.g. "Descargar CSV") and "CSV (Excel)", the dialect a spreadsheet set to the portal's language opens
 * with its columns split and numbers as numbers (Spanish: `;` separator, decimal comma). Each click calls
 * `onDownload` with its `CsvVariant`; the screen builds the file (`toCsv(rows, columns, csvDialect(variant))`).
 */
import type { CsvVariant } from './csv';
import { useT } from '../lib/messages';

export function CsvButtons({ label, disabled, onDownload }: { label: string; disabled?: boolean; onDownload: (variant: CsvVariant) => void }) {
  const t = useT();
  return (
    <>
      <button type="button" className="btn" disabled={disabled} onClick={() => onDownload('standard')}>
        {label}
      </button>
      <button type="button" className="btn" disabled={disabled} title={t('ui.csv.excelHint')} onClick={() => onDownload('excel')}>
        {t('ui.csv.excel')}
      </button>
    </>
  );
}
