/** infra/security-headers.ts: the CSP and companion headers shared by CloudFront and the local portal server. */
import { describe, expect, it } from 'vitest';
import {
  awsPortalOrigins,
  contentSecurityPolicy,
  localSecurityHeaders,
  securityHeaderSettings,
  securityHeaders,
} from '../../infra/security-headers.js';

/** CSP directive name → its sources. */
function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...src]) => [name!, src]));
}

describe('Content-Security-Policy', () => {
  it('AWS: only the site, the region\'s Cognito endpoints and API Gateway; no inline or eval; clickjacking refused', () => {
    const d = directives(contentSecurityPolicy(awsPortalOrigins('eu-west-1')));
    expect(d.get('default-src')).toEqual(["'none'"]);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('style-src')).toEqual(["'self'"]);
    expect(d.get('connect-src')).toEqual([
      "'self'",
      'https://cognito-idp.eu-west-1.amazonaws.com',
      'https://cognito-identity.eu-west-1.amazonaws.com',
      'https://*.execute-api.eu-west-1.amazonaws.com',
    ]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('base-uri')).toEqual(["'none'"]);
    expect(d.has('upgrade-insecure-requests')).toBe(true);
    for (const [name, sources] of d) {
      for (const src of sources) expect(src, name).not.toMatch(/unsafe|^\*$|^https:$|^http:$/);
    }
  });

  it('China regions use the amazonaws.com.cn suffix', () => {
    expect(contentSecurityPolicy(awsPortalOrigins('cn-north-1', 'amazonaws.com.cn'))).toContain('https://cognito-idp.cn-north-1.amazonaws.com.cn');
  });
});

describe('local portal headers', () => {
  it('same header set as CloudFront, with the exact local user-pool and gateway origins and no HTTPS upgrade', () => {
    const local = localSecurityHeaders({ apiUrl: 'http://127.0.0.1:41003', userPoolEndpoint: 'http://127.0.0.1:41001/' });
    const aws = securityHeaders(securityHeaderSettings(awsPortalOrigins('eu-west-1')));
    expect(Object.keys(local).sort()).toEqual(Object.keys(aws).sort());
    for (const name of Object.keys(aws).filter((n) => n !== 'Content-Security-Policy')) expect(local[name], name).toBe(aws[name]);
    const d = directives(local['Content-Security-Policy']!);
    expect(d.get('connect-src')).toEqual(["'self'", 'http://127.0.0.1:41001', 'http://127.0.0.1:41003']);
    expect(d.has('upgrade-insecure-requests')).toBe(false);
    expect(local['Strict-Transport-Security']).toBe('max-age=63072000; includeSubDomains');
    expect(local['X-Frame-Options']).toBe('DENY');
    expect(local['Referrer-Policy']).toBe('no-referrer');
    expect(local['X-Content-Type-Options']).toBe('nosniff');
  });
});
