/**
 * DynamoDB's size of an item in the wire form (`{ S: … }` attribute values), in bytes, the way DynamoDB
 * counts it for the 400 KB item limit and for capacity units (Amazon DynamoDB Developer Guide, "Item sizes
 * and formats": https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html):
 *
 *  - every attribute name: its UTF-8 length;
 *  - `S`: UTF-8 length; `B`: length of the raw bytes (the wire carries base64);
 *  - `N`: about one byte per two significant digits plus one (leading and trailing zeros do not count; one
 *    more byte for a negative number): `ceil(significant digits / 2) + 1 (+ 1 if negative)`;
 *  - `BOOL`, `NULL`: 1 byte;
 *  - `L`, `M`: 3 bytes plus 1 byte per element, plus the elements (a map's members count their names);
 *  - `SS`, `NS`, `BS`: the sum of their elements.
 *
 * The local engine (dynoxide) already refuses items over 400 KB itself (measured: 409,600 bytes pass,
 * 409,601 do not, the same count as this module); the rules layer uses these sizes to spread a request's
 * consumed write units over the partitions it touches (`throughput.ts`).
 */

/** An attribute value in DynamoDB's JSON wire form. */
export type WireValue = Record<string, unknown>;
/** An item (or key) in DynamoDB's JSON wire form: attribute name → attribute value. */
export type WireItem = Record<string, WireValue>;

/** DynamoDB's maximum item size: 400 KB = 409,600 bytes ("Service, account, and table quotas"). */
export const MAX_ITEM_BYTES = 400 * 1024;

const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8');

/** Bytes of a number's wire string (`"-0012.3400"` → 3 significant digits → 2 + 1 + 1 bytes). */
export function numberSize(n: string): number {
  const negative = n.trim().startsWith('-');
  const mantissa = n.trim().replace(/^[-+]/, '').split(/[eE]/)[0] ?? '';
  const digits = mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1 + (negative ? 1 : 0);
}

/** Bytes of one attribute value (without its name); an unknown type counts 0. */
export function valueSize(v: WireValue): number {
  if (typeof v.S === 'string') return utf8(v.S);
  if (typeof v.N === 'string') return numberSize(v.N);
  if (typeof v.B === 'string') return Buffer.from(v.B, 'base64').length;
  if (v.BOOL !== undefined || v.NULL !== undefined) return 1;
  if (Array.isArray(v.SS)) return (v.SS as string[]).reduce((s, x) => s + utf8(x), 0);
  if (Array.isArray(v.NS)) return (v.NS as string[]).reduce((s, x) => s + numberSize(x), 0);
  if (Array.isArray(v.BS)) return (v.BS as string[]).reduce((s, x) => s + Buffer.from(x, 'base64').length, 0);
  if (Array.isArray(v.L)) return 3 + (v.L as WireValue[]).reduce((s, x) => s + 1 + valueSize(x), 0);
  if (v.M && typeof v.M === 'object') {
    return 3 + Object.entries(v.M as WireItem).reduce((s, [k, x]) => s + 1 + utf8(k) + valueSize(x), 0);
  }
  return 0;
}

/** Bytes of an item: the sum over its attributes of name length plus value size. */
export function itemSize(item: WireItem): number {
  let total = 0;
  for (const [name, v] of Object.entries(item)) total += utf8(name) + valueSize(v);
  return total;
}

/** Write capacity units of writing an item of `bytes` (1 WCU per 1 KB, rounded up, at least 1). */
export function writeUnits(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / 1024));
}
