/**
 * Checks that every pointer into `docs/` resolves: each `docs/<file>.md` or `docs/<file>.md#<anchor>`
 * named in a source, test, workflow or Markdown file of the repository (build output, state folders and
 * dependencies skipped) must name an existing file and, with an
 * anchor, a heading of that file (GitHub's heading slugs: lower case, punctuation dropped, spaces → `-`).
 * Relative Markdown links inside docs/ (`[x](api.md#errors)`) are checked the same way.
 *
 * Used by `test/unit/docs-links.test.ts`; run alone with `npx tsx scripts/lib/doc-links.ts`
 * (prints each broken pointer with its file and line, exit 1 when any).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A pointer that does not resolve: where it stands and what it names. */
export interface BrokenDocLink {
  file: string;
  line: number;
  target: string;
  reason: 'no such file' | 'no such heading';
}

/** GitHub's anchor for a Markdown heading text. */
export function headingSlug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown text (duplicates get `-1`, `-2` as on GitHub); fenced code is skipped. */
export function anchorsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = headingSlug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) out.add(m[1]!);
  return out;
}

const POINTER = /docs\/((?:[\w-]+\/)*[\w.-]+\.md)(?:#([\w-]+))?/g;
const RELATIVE = /\]\((?!https?:|#|\/)([^)\s#]+\.md)(?:#([\w-]+))?\)/g;

/** Folders that hold no pointers of ours (dependencies, build output, local state, generated results). */
const SKIPPED = new Set(['node_modules', '.git', '.local', 'cdk.out', 'dist', 'test-results', 'results']);

/** Repository-relative paths of the files that may hold pointers (`.ts .tsx .js .md .yml .yaml .css .html`). */
function candidateFiles(root: string, dir = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (!SKIPPED.has(e.name) && !(e.name.startsWith('.') && e.name !== '.github' && e.name !== '.ci')) out.push(...candidateFiles(root, rel));
    } else if (/\.(ts|tsx|js|md|ya?ml|css|html)$/.test(e.name)) out.push(rel);
  }
  return out;
}

/** Every broken pointer in the files of the repository at `root`. */
export function brokenDocLinks(root: string): BrokenDocLink[] {
  const files = candidateFiles(root);
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (doc: string) => {
    let a = anchorCache.get(doc);
    if (!a) anchorCache.set(doc, (a = anchorsOf(readFileSync(path.join(root, doc), 'utf8'))));
    return a;
  };
  const out: BrokenDocLink[] = [];
  const check = (file: string, line: number, doc: string, anchor: string | undefined, shown: string) => {
    if (!existsSync(path.join(root, doc))) out.push({ file, line, target: shown, reason: 'no such file' });
    else if (anchor && !anchors(doc).has(anchor)) out.push({ file, line, target: shown, reason: 'no such heading' });
  };
  for (const file of files) {
    if (!existsSync(path.join(root, file))) continue;
    const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
    lines.forEach((text, i) => {
      for (const m of text.matchAll(POINTER)) {
        // A docs path inside a longer path (e.g. under node_modules) is not ours.
        const before = text[m.index! - 1];
        if (before && /[\w./-]/.test(before)) continue;
        check(file, i + 1, `docs/${m[1]}`, m[2], m[0]);
      }
      if (file.startsWith('docs/')) {
        for (const m of text.matchAll(RELATIVE)) {
          const doc = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]!));
          if (!doc.startsWith('docs/')) continue;
          check(file, i + 1, doc, m[2], `${m[1]}${m[2] ? `#${m[2]}` : ''}`);
        }
      }
    });
  }
  return out;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const broken = brokenDocLinks(process.cwd());
  for (const b of broken) console.log(`${b.file}:${b.line}: ${b.target} (${b.reason})`);
  console.log(broken.length === 0 ? 'every docs/ pointer resolves' : `${broken.length} broken docs/ pointer(s)`);
  process.exitCode = broken.length === 0 ? 0 : 1;
}
