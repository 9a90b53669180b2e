/**
 * The configuration block as the servers write it (`withInlinePortalConfig`, lambdas/contract/portal-config-html.ts)
 * and as the portal reads it (`readInlinePortalConfig`), through the browser's HTML parser
 * (docs/portal.md#configuration-in-indexhtml).
 */
import { describe, expect, it } from 'vitest';
import { withInlinePortalConfig } from '../../../../lambdas/contract/portal-config-html';
import indexHtml from '../../../index.html?raw';
import { readInlinePortalConfig } from './config';

const CONFIG = {
  region: 'eu-west-1',
  userPoolId: 'eu-west-1_abc',
  userPoolClientId: 'client',
  identityPoolId: '',
  apiUrl: 'https://abc.execute-api.eu-west-1.amazonaws.com/dev',
  stage: 'dev',
  allowSignUp: false,
  // Values that would end the element or open a comment if written as is.
  brandName: 'Vigía </script><script>alert(1)</script> <!-- x',
};
/** web/index.html as Vite builds it (the entry script renamed). */
const BUILT = indexHtml.replace('<script type="module" src="/src/main.tsx"></script>', '<script type="module" crossorigin src="/assets/index-abc.js"></script>');
const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

describe('the configuration in index.html, written by the server and read by the portal', () => {
  it('takes the place of the build’s preload of /config.json and reads back as the same object', () => {
    expect(BUILT).toMatch(/<link rel="preload" href="\/config\.json"/);
    const html = withInlinePortalConfig(BUILT, JSON.stringify(CONFIG));
    expect(html).not.toMatch(/href="\/config\.json"/);
    const doc = parse(html);
    expect(readInlinePortalConfig(doc)).toEqual(CONFIG);
    // the brand name's "</script><script>" made no element of its own: the block and the entry script only
    expect([...doc.querySelectorAll('script')].map((s) => s.type)).toEqual(['application/json', 'module']);
    expect(doc.head.querySelector('#vigia-config')).not.toBeNull();
  });

  it('without a preload: before </head>, or after the doctype of a page without a head (standards mode kept)', () => {
    const withHead = withInlinePortalConfig('<!doctype html><html><head><title>x</title></head><body></body></html>', JSON.stringify(CONFIG));
    expect(withHead).toMatch(/<title>x<\/title> {2}<script type="application\/json" id="vigia-config">.*<\/script>\n {2}<\/head>/s);
    expect(readInlinePortalConfig(parse(withHead))).toEqual(CONFIG);
    const bare = withInlinePortalConfig('<!doctype html><title>Vigía</title>', JSON.stringify(CONFIG));
    expect(bare.startsWith('<!doctype html><script type="application/json"')).toBe(true);
    expect(readInlinePortalConfig(parse(bare))).toEqual(CONFIG);
    expect(parse(bare).compatMode).toBe('CSS1Compat');
  });

  it('refuses a page that already carries a block; a page without one reads as undefined', () => {
    const once = withInlinePortalConfig(BUILT, '{}');
    expect(() => withInlinePortalConfig(once, '{}')).toThrow(/already carries a configuration block/);
    expect(readInlinePortalConfig(parse(BUILT))).toBeUndefined();
  });

  it('a block that is not JSON or not a PortalConfig is a ConfigError naming the fields', () => {
    expect(() => readInlinePortalConfig(parse(withInlinePortalConfig(BUILT, '{"region": ')))).toThrow(/index\.html #vigia-config is not valid JSON/);
    expect(() => readInlinePortalConfig(parse(withInlinePortalConfig(BUILT, JSON.stringify({ ...CONFIG, apiUrl: 'x', stage: '' }))))).toThrow(
      /index\.html #vigia-config is invalid: .*stage.*apiUrl|apiUrl.*stage/,
    );
  });
});
