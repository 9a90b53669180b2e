import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, brokenDocLinks, headingSlug } from '../../scripts/lib/doc-links.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('pointers into docs/', () => {
  it('slugs headings as GitHub does', () => {
    expect(headingSlug('Staff accounts and TOTP')).toBe('staff-accounts-and-totp');
    expect(headingSlug('`npm start` flags (local)')).toBe('npm-start-flags-local');
    expect(headingSlug('Cognito e-mail')).toBe('cognito-e-mail');
    expect([...anchorsOf('# A\n```\n# not a heading\n```\n## A\n')]).toEqual(['a', 'a-1']);
  });

  it('every docs/<file>.md#<anchor> named in code, tests, workflows and docs exists', () => {
    const broken = brokenDocLinks(ROOT).map((b) => `${b.file}:${b.line}: ${b.target} (${b.reason})`);
    expect(broken).toEqual([]);
  });
});
