/**
 * Text rules of the search index (docs/data-model.md#search): how an incident title and a search text become
 * tokens, and how a device name becomes its case- and accent-insensitive sort key. Pure functions, shared by
 * the writers (`lambdas/data/incident-search.ts`), the reads that verify a candidate, the upgrade step and
 * the tests' reference filter, so the index and the reference can never disagree on a rule.
 */

/**
 * Words left out of the index and of a query: Spanish and English articles, prepositions, conjunctions and
 * pronouns that appear in most titles and would make a token partition as large as the tenant.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  [
    // Spanish
    'al', 'con', 'de', 'del', 'el', 'en', 'es', 'la', 'las', 'le', 'lo', 'los', 'mas', 'no', 'para', 'por', 'que', 'se', 'sin', 'su', 'sus', 'un', 'una', 'unos', 'unas', 'uno', 'y', 'o', 'a', 'e', 'u', 'ya', 'muy', 'sobre', 'tras', 'entre',
    // English
    'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'is', 'it', 'of', 'on', 'or', 'the', 'to', 'with', 'was',
  ],
);

/** Longest token kept (longer words are cut to this length, in the index and in queries alike). */
export const MAX_TOKEN_LENGTH = 40;

/** Lower case with accents and other diacritics removed (`Córdoba` → `cordoba`, `Ñandú` → `nandu`). */
export function foldText(s: string): string {
  return s.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
}

/**
 * The distinct tokens of `text`, in order of first appearance: folded (`foldText`), split at every character
 * that is not a letter or digit, words of one character and `STOP_WORDS` dropped, each cut to
 * `MAX_TOKEN_LENGTH`. `'Fallo de VPN en FW-MAD-00001'` → `['fallo', 'vpn', 'fw', 'mad', '00001']`.
 */
export function searchTokens(text: string): string[] {
  const out = new Set<string>();
  for (const word of foldText(text).split(/[^\p{L}\p{N}]+/u)) {
    if (word.length < 2 || STOP_WORDS.has(word)) continue;
    out.add(word.slice(0, MAX_TOKEN_LENGTH));
  }
  return [...out];
}

/**
 * Whether an incident with this title matches the search text: the text has at least one token and every
 * token of it is a token of the title (whole words, any order, case and accents ignored). This is the
 * definition the index answers; a text of stop words only matches nothing.
 */
export function titleMatches(title: string, queryTokens: readonly string[]): boolean {
  if (queryTokens.length === 0) return false;
  const have = new Set(searchTokens(title));
  return queryTokens.every((t) => have.has(t));
}

/** A device name as its list sort key and prefix-search form: folded (`foldText`) and trimmed. */
export function deviceNameKey(name: string): string {
  return foldText(name).trim();
}

/**
 * A device IP address as its index sort key and search form (docs/data-model.md#search): trimmed, lower
 * case (IPv6 hex digits), so `10.0.3.` and `FE80::` are prefixes of the stored keys.
 */
export function deviceIpKey(ip: string): string {
  return ip.trim().toLowerCase();
}

/** Words of one comment that are indexed at most (the first distinct ones): 64 items of ≤ 1 KB, 64 WCU at most. */
export const MAX_COMMENT_TOKENS = 64;

/** The indexed words of a comment body: its first `MAX_COMMENT_TOKENS` distinct tokens (`searchTokens`). */
export function commentTokens(body: string): string[] {
  return searchTokens(body).slice(0, MAX_COMMENT_TOKENS);
}

/** Whether a comment body matches the search tokens: every one of them is among its indexed words. */
export function commentMatches(body: string, queryTokens: readonly string[]): boolean {
  if (queryTokens.length === 0) return false;
  const have = new Set(commentTokens(body));
  return queryTokens.every((t) => have.has(t));
}

/**
 * Words of one device alarm's title that are indexed at most (the first distinct ones; docs/data-model.md#search):
 * every one is a Put (and a changed title's old words Deletes) in the alarm's own TransactWriteItems, so 16
 * keeps the raise within the 100-action limit beside the alarm, its device, aggregates, activity and console copies.
 */
export const MAX_ALARM_TOKENS = 16;

/** The indexed words of a device alarm title: its first `MAX_ALARM_TOKENS` distinct tokens (`searchTokens`). */
export function alarmTokens(title: string): string[] {
  return searchTokens(title).slice(0, MAX_ALARM_TOKENS);
}

/** Whether a device alarm title matches the search tokens: every one of them is among its indexed words. */
export function alarmMatches(title: string, queryTokens: readonly string[]): boolean {
  if (queryTokens.length === 0) return false;
  const have = new Set(alarmTokens(title));
  return queryTokens.every((t) => have.has(t));
}

/**
 * The parts of an Office 365 user's UPN (e-mail) that a user search matches by prefix (docs/data-model.md#search):
 * the UPN folded (`foldText`, trimmed) and each of its suffixes that starts a word of the local part (after `.`, `_`,
 * `-` or `+`), at most 4, so `Maria.Lopez@acme.com` is found by `maria`, `maria.lo` and `lopez`
 * (`['maria.lopez@acme.com', 'lopez@acme.com']`). The domain alone is no entry (it would match every user).
 */
export function upnKeys(upn: string): string[] {
  const folded = foldText(upn).trim();
  const at = folded.indexOf('@');
  const local = at < 0 ? folded : folded.slice(0, at);
  const out = [folded];
  for (let i = 0; i < local.length && out.length < 4; i++) {
    if ('._-+'.includes(local[i]!) && i + 1 < local.length && !'._-+'.includes(local[i + 1]!)) out.push(folded.slice(i + 1));
  }
  return [...new Set(out)];
}

/** The words of a user search: `q` folded and split at white space, words of one character dropped. */
export function userSearchWords(q: string): string[] {
  return [...new Set(foldText(q).split(/\s+/u).filter((w) => w.length >= 2))];
}
