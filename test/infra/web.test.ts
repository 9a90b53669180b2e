/** Hosting + PortalDeployment: private bucket, CloudFront with OAC and SPA fallback, config.json from tokens. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PortalConfig } from '../../lambdas/contract/portal-config.js';
import { WEB_DIST_MISSING_WARNING } from '../../infra/portal-deployment-stack.js';
import { ofType, synth, synthPr42, synthProd, type Synthed } from '../support/synth.js';

const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';

/** The `Source.jsonData` config.json of the site deployment: the file (with markers) and the marker values. */
function configJson(s: Synthed): { json: Record<string, unknown>; markers: Record<string, unknown>; deployment: Record<string, unknown> } {
  const deployments = ofType(s.t.portal, 'Custom::CDKBucketDeployment').map(([, d]) => d.Properties!);
  const site = deployments.find((d) => ((d.SourceMarkers ?? []) as object[]).some((m) => Object.keys(m).length > 0))!;
  const keys = site.SourceObjectKeys as string[];
  const idx = (site.SourceMarkers as object[]).findIndex((m) => Object.keys(m).length > 0);
  const dir = path.join(s.assembly.directory, `asset.${keys[idx]!.replace(/\.zip$/, '')}`);
  const json = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
  return { json, markers: (site.SourceMarkers as Array<Record<string, unknown>>)[idx]!, deployment: site };
}

describe('Hosting stack', () => {
  it('no public bucket: all public access blocked, SSL enforced, S3-managed encryption', () => {
    const { t } = synthProd();
    const buckets = ofType(t.hosting, 'AWS::S3::Bucket');
    expect(buckets).toHaveLength(2);
    for (const [id, b] of buckets) {
      expect(b.Properties!.PublicAccessBlockConfiguration, id).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(JSON.stringify(b.Properties!.BucketEncryption), id).toContain('AES256');
    }
    const policies = ofType(t.hosting, 'AWS::S3::BucketPolicy');
    expect(policies).toHaveLength(2);
    for (const [id, p] of policies) {
      const statements = (p.Properties!.PolicyDocument as { Statement: Array<Record<string, unknown>> }).Statement;
      expect(
        statements.some((s) => s.Effect === 'Deny' && JSON.stringify(s.Condition) === '{"Bool":{"aws:SecureTransport":"false"}}'),
        id,
      ).toBe(true);
      // Nothing is granted to everyone except the SSL deny.
      for (const s of statements.filter((x) => x.Effect === 'Allow')) expect(s.Principal, id).not.toBe('*');
    }
  });

  it('distribution: OAC, HTTPS redirect, index.html root, SPA fallback, config.json/index.html not cached', () => {
    const { t } = synthPr42();
    t.hosting.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    const [, dist] = ofType(t.hosting, 'AWS::CloudFront::Distribution')[0]!;
    const c = dist.Properties!.DistributionConfig as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(c.DefaultRootObject).toBe('index.html');
    expect(c.Origins).toHaveLength(1);
    expect(c.Origins[0].OriginAccessControlId).toBeDefined();
    expect(c.Origins[0].S3OriginConfig.OriginAccessIdentity).toBe('');
    expect(c.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(c.CustomErrorResponses).toEqual(
      [403, 404].map((code) => ({ ErrorCode: code, ResponseCode: 200, ResponsePagePath: '/index.html', ErrorCachingMinTTL: 0 })),
    );
    const behaviors = Object.fromEntries((c.CacheBehaviors as Array<Record<string, unknown>>).map((b) => [b.PathPattern, b]));
    for (const p of ['/index.html', '/config.json']) {
      expect(behaviors[p]!.CachePolicyId, p).toBe(CACHING_DISABLED);
      expect(behaviors[p]!.ViewerProtocolPolicy, p).toBe('redirect-to-https');
    }
    // Previews keep no access logs (docs/platform.md#previews-leave-nothing-behind); production stages do.
    expect(c.Logging).toBeUndefined();
    const prodDistribution = ofType(synthProd().t.hosting, 'AWS::CloudFront::Distribution')[0]![1].Properties as { DistributionConfig: { Logging?: unknown } };
    expect(prodDistribution.DistributionConfig.Logging).toBeDefined();
  });
});

describe('PortalDeployment stack', () => {
  it.each([
    ['pr-42', synthPr42, false],
    ['prod', synthProd, false],
  ] as const)('%s: config.json has the PortalConfig shape, fed from the other stacks’ outputs', (stage, get, allowSignUp) => {
    const { json, markers } = configJson(get());
    // Substitute every marker with a plausible value: the result must be an exact PortalConfig.
    const filled = JSON.parse(JSON.stringify(json).replace(/<<marker:0xbaba:\d+>>/g, 'x')) as unknown;
    const parsed = PortalConfig.strict().parse(filled);
    expect(parsed).toMatchObject({ stage, allowSignUp, brandName: 'Vigía' });
    expect(parsed.userPoolEndpoint).toBeUndefined();
    const markerOf = (key: string): string => JSON.stringify(markers[String(json[key])]);
    expect(markerOf('userPoolId')).toMatch(new RegExp(`"StackName":"Vigia-${stage}-Auth".*PublishOutputRefUserPool`));
    expect(markerOf('userPoolClientId')).toMatch(/PortalClient/);
    expect(markerOf('identityPoolId')).toMatch(/IdentityPool/);
    // Env-bound prod knows its region at synth time; the agnostic preview resolves it at deploy time.
    if (stage === 'prod') expect(json.region).toBe('eu-west-1');
    else expect(markerOf('region')).toBe(JSON.stringify({ Ref: 'AWS::Region' }));
    expect(String(json.apiUrl)).toMatch(new RegExp(`^https://<<marker:0xbaba:\\d+>>\\.execute-api\\..*/${stage}$`));
    expect(String(json.apiUrl).endsWith('/')).toBe(false);
  });

  it('uploads hashed assets with a long cache and everything else with no-cache into the site bucket', () => {
    const s = synthPr42();
    const deployments = ofType(s.t.portal, 'Custom::CDKBucketDeployment').map(([, d]) => d.Properties!);
    expect(deployments).toHaveLength(2);
    const assets = deployments.find((d) => JSON.stringify(d.Include) === '["assets/*"]')!;
    const site = configJson(s).deployment;
    expect(assets.SystemMetadata).toEqual({ 'cache-control': 'public, max-age=31536000, immutable' });
    expect(site.SystemMetadata).toEqual({ 'cache-control': 'no-cache' });
    expect(site.Exclude).toEqual(['assets/*']);
    for (const d of deployments) expect(JSON.stringify(d.DestinationBucketName)).toContain('vigia-pr-42-site-');
  });

  it('falls back to the placeholder page with a warning when web/dist is missing', () => {
    const s = synth('pr-42', { nag: false, webDistDir: '/nonexistent/web/dist' });
    expect(s.stacks.portal.sourceDir.endsWith(path.join('infra', 'placeholder'))).toBe(true);
    const warnings = s.assembly.getStackArtifact(s.stacks.portal.artifactId).messages.filter((m) => m.level === 'warning');
    expect(warnings.map((w) => String(w.entry.data))).toEqual([expect.stringContaining('npm run build:web')]);
    expect(JSON.stringify(warnings[0]!.entry.data)).toContain('npm run build:web');
    expect(WEB_DIST_MISSING_WARNING).toMatch(/web-dist-missing/);
    const dirs = readdirSync(s.assembly.directory).filter((d) => existsSync(path.join(s.assembly.directory, d, 'index.html')));
    expect(dirs.map((d) => readFileSync(path.join(s.assembly.directory, d, 'index.html'), 'utf8'))).toEqual([
      expect.stringContaining('El portal todavía no se ha publicado'),
    ]);
  });
});

describe('PortalDeployment ships the API contract', () => {
  it('uploads openapi.json (OpenAPI 3.1 from the zod schemas) with the API URL as its server', () => {
    const s = synthProd();
    const deployments = ofType(s.t.portal, 'Custom::CDKBucketDeployment').map(([, d]) => d.Properties!);
    const site = deployments.find((d) => ((d.SourceMarkers ?? []) as object[]).some((m) => Object.keys(m).length > 0))!;
    const keys = site.SourceObjectKeys as string[];
    const docs = keys
      .map((k) => path.join(s.assembly.directory, `asset.${k.replace(/\.zip$/, '')}`, 'openapi.json'))
      .filter((f) => existsSync(f))
      .map((f) => JSON.parse(readFileSync(f, 'utf8')) as { openapi: string; paths: Record<string, unknown>; servers: Array<{ url: string }> });
    expect(docs).toHaveLength(1);
    expect(docs[0]!.openapi).toBe('3.1.0');
    expect(Object.keys(docs[0]!.paths)).toContain('/incidents/{id}');
    // The server URL is a deploy-time token (a marker), resolved to the stage's API URL.
    expect(docs[0]!.servers[0]!.url).toMatch(/<<marker:/);
  });
});
