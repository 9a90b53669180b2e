/**
 * The deployed portal's Content-Security-Policy names this stage's API, not every `*.execute-api` host of
 * the region. CloudFront's response headers policy (Hosting stack, deployed before the API exists) keeps the
 * regional wildcard; the `index.html` the PortalDeployment stack uploads carries a meta policy whose
 * `connect-src` is `'self'`, the Cognito endpoints and the stage's invoke URL. Browsers enforce every policy
 * they are given, so the effective `connect-src` is the intersection (W3C CSP Level 3, "Enforcing multiple
 * policies", https://www.w3.org/TR/CSP3/#multiple-policies; a meta element may deliver `connect-src`,
 * https://www.w3.org/TR/CSP3/#meta-element). The API's invoke URL is `https://{restapi_id}.execute-api.{region}.amazonaws.com/{stage_name}`
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/how-to-call-api.html).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stageConnectPolicy, withCspMeta } from '../../infra/security-headers.js';
import { ofType, synth, synthProd, type Synthed } from '../support/synth.js';

/** The uploaded index.html (with its deploy-time markers) and the markers' values. */
function deployedIndex(s: Synthed): { html: string; markers: Record<string, unknown> } {
  const deployments = ofType(s.t.portal, 'Custom::CDKBucketDeployment').map(([, d]) => d.Properties!);
  for (const d of deployments) {
    const keys = d.SourceObjectKeys as string[];
    for (const [i, k] of keys.entries()) {
      const f = path.join(s.assembly.directory, `asset.${k.replace(/\.zip$/, '')}`, 'index.html');
      if (existsSync(f)) return { html: readFileSync(f, 'utf8'), markers: ((d.SourceMarkers as Record<string, unknown>[] | undefined) ?? [])[i] ?? {} };
    }
  }
  throw new Error('no index.html uploaded');
}

describe('the deployed CSP names this stage’s API', () => {
  it('index.html carries a meta policy whose connect-src is the stage’s invoke URL, resolved at deploy time', () => {
    const s = synthProd();
    const { html, markers } = deployedIndex(s);
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html);
    expect(meta, html).not.toBeNull();
    const directives = meta![1]!.split(' ');
    expect(directives.slice(0, 2)).toEqual(['connect-src', "'self'"]);
    expect(directives).toContain('https://cognito-idp.eu-west-1.amazonaws.com');
    const api = directives.filter((d) => d.includes('execute-api'));
    expect(api).toHaveLength(1);
    // https://<rest api id marker>.execute-api.eu-west-1.<the Api stack's URL suffix>/prod/ — no wildcard host
    expect(api[0]).toMatch(/^https:\/\/<<marker:0xbaba:\d+>>\.execute-api\.eu-west-1\.[^/]+\/prod\/$/);
    expect(api[0]).not.toContain('*');
    const marker = /<<marker:0xbaba:\d+>>/.exec(api[0]!)![0];
    expect(JSON.stringify(markers[marker])).toMatch(/Vigia-prod-Api/);
    // the meta element comes first in <head>, before the module script it governs
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.search(/<script|<title/));
  });

  it('the build’s own index.html is not uploaded as is (only the one with the meta policy)', () => {
    const s = synth('pr-42', { nag: false });
    const withIndex = ofType(s.t.portal, 'Custom::CDKBucketDeployment')
      .flatMap(([, d]) => d.Properties!.SourceObjectKeys as string[])
      .filter((k) => existsSync(path.join(s.assembly.directory, `asset.${k.replace(/\.zip$/, '')}`, 'index.html')));
    expect(withIndex).toHaveLength(1);
    expect(deployedIndex(s).html).toContain('Content-Security-Policy');
  });

  it('withCspMeta and stageConnectPolicy', () => {
    const policy = stageConnectPolicy(['https://cognito-idp.eu-west-1.amazonaws.com'], 'https://abc.execute-api.eu-west-1.amazonaws.com/dev');
    expect(policy).toBe("connect-src 'self' https://cognito-idp.eu-west-1.amazonaws.com https://abc.execute-api.eu-west-1.amazonaws.com/dev/");
    expect(withCspMeta('<html><head lang="es"><title>x</title></head></html>', policy)).toBe(
      `<html><head lang="es">\n    <meta http-equiv="Content-Security-Policy" content="connect-src 'self' https://cognito-idp.eu-west-1.amazonaws.com https://abc.execute-api.eu-west-1.amazonaws.com/dev/" /><title>x</title></head></html>`,
    );
    expect(withCspMeta('<!doctype html><p>no head</p>', policy)).toMatch(/^<!doctype html>\n {4}<meta http-equiv="Content-Security-Policy" [^>]+\/><p>no head<\/p>$/);
  });
});
