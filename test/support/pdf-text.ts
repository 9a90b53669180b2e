/**
 * The text a PDF shows, for assertions on the monthly report (lambdas/domain/monthly-report.ts): pdf-lib writes
 * standard-font text as hex strings in WinAnsi (Windows-1252) inside the pages' content streams.
 */
import { inflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';

/** The Windows-1252 bytes the report's texts use that Latin-1 decodes differently. */
const WIN_1252_EXTRA: Record<number, string> = { 0x96: '–', 0x97: '—', 0x80: '€', 0x93: '“', 0x94: '”' };

/**
 * The text of the PDF `bytes`: every page content stream (inflated when it has a `Filter`), the strings of its
 * `<hex> Tj` operators decoded from WinAnsi, one entry per string, in drawing order; and the number of pages.
 * @throws what `PDFDocument.load` throws for bytes that are not a PDF.
 */
export async function pdfText(bytes: Uint8Array): Promise<{ pages: number; strings: string[] }> {
  const doc = await PDFDocument.load(bytes);
  const strings: string[] = [];
  for (const page of doc.getPages()) {
    const contents = page.node.Contents();
    const refs = contents && 'asArray' in contents ? contents.asArray() : [page.node.get(PDFName.of('Contents'))];
    for (const ref of refs) {
      const stream = doc.context.lookup(ref);
      if (!(stream instanceof PDFRawStream)) continue;
      const raw = Buffer.from(stream.contents);
      const text = (stream.dict.get(PDFName.of('Filter')) ? inflateSync(raw) : raw).toString('latin1');
      for (const m of text.matchAll(/<([0-9A-Fa-f]*)> Tj/g)) {
        strings.push([...Buffer.from(m[1]!, 'hex')].map((b) => WIN_1252_EXTRA[b] ?? String.fromCharCode(b)).join(''));
      }
    }
  }
  return { pages: doc.getPageCount(), strings };
}
