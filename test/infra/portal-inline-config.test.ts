/**
 * The deployed `index.html` carries config.json's object (docs/portal.md#configuration-in-indexhtml): the
 * PortalDeployment stack writes it with `withInlinePortalConfig` into `Source.data` with `jsonEscape`, so the
 * values the deployment substitutes for CloudFormation tokens are JSON-encoded as in `Source.jsonData`
 * (aws-cdk-lib `Source.data` / `Source.jsonData`, "deploy-time values"). Checked here on the synthesized
 * assets: the block, with each marker replaced by the CloudFormation value it stands for, equals config.json
 * treated the same way.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PORTAL_CONFIG_ELEMENT_ID } from '../../lambdas/contract/portal-config-html.js';
import { ofType, synth } from '../support/synth.js';

/** A build shaped as Vite writes web/index.html (with the preload of /config.json). */
function viteLikeDist(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigia-web-dist-'));
  mkdirSync(path.join(dir, 'assets'));
  const html = readFileSync(path.join(import.meta.dirname, '../../web/index.html'), 'utf8').replace(
    '<script type="module" src="/src/main.tsx"></script>',
    '<script type="module" crossorigin src="/assets/index-abc123.js"></script>',
  );
  writeFileSync(path.join(dir, 'index.html'), html);
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  return dir;
}

interface Uploaded {
  text: string;
  markers: Record<string, unknown>;
  markersConfig: Record<string, unknown>;
}

/** The file `name` as one of the stack's BucketDeployments uploads it, with its source's markers. */
function uploaded(dir: string, template: Parameters<typeof ofType>[0], name: string): Uploaded {
  for (const [, d] of ofType(template, 'Custom::CDKBucketDeployment')) {
    const p = d.Properties!;
    for (const [i, k] of (p.SourceObjectKeys as string[]).entries()) {
      const f = path.join(dir, `asset.${k.replace(/\.zip$/, '')}`, name);
      if (existsSync(f)) {
        return {
          text: readFileSync(f, 'utf8'),
          markers: ((p.SourceMarkers as Record<string, unknown>[] | undefined) ?? [])[i] ?? {},
          markersConfig: ((p.SourceMarkersConfig as Record<string, unknown>[] | undefined) ?? [])[i] ?? {},
        };
      }
    }
  }
  throw new Error(`${name} is not uploaded`);
}

/** `json` parsed, each `<<marker:…>>` inside a string replaced by the CloudFormation value it stands for. */
function resolveMarkers(json: string, markers: Record<string, unknown>): unknown {
  return JSON.parse(json, (_k, v: unknown) =>
    typeof v === 'string' && v.includes('<<marker:')
      ? v.replace(/<<marker:0xbaba:\d+>>/g, (m) => {
          expect(markers[m], m).toBeDefined();
          return `{${JSON.stringify(markers[m])}}`;
        })
      : v,
  );
}

describe('the deployed index.html carries the configuration', () => {
  it('as config.json’s object, with deploy-time values JSON-encoded, in place of the preload', () => {
    const s = synth('pr-7', { nag: false, webDistDir: viteLikeDist() });
    const index = uploaded(s.assembly.directory, s.t.portal, 'index.html');
    const config = uploaded(s.assembly.directory, s.t.portal, 'config.json');
    expect(index.text).not.toMatch(/href="\/config\.json"/);
    const block = new RegExp(`<script type="application/json" id="${PORTAL_CONFIG_ELEMENT_ID}">(.*?)</script>`).exec(index.text);
    expect(block, index.text).not.toBeNull();
    expect(index.text.indexOf(block![0])).toBeLessThan(index.text.indexOf('/assets/index-abc123.js'));
    const fromIndex = resolveMarkers(block![1]!, index.markers) as Record<string, unknown>;
    expect(fromIndex).toEqual(resolveMarkers(config.text, config.markers));
    // tokens are in it (the user pool, the API URL) and resolved at deploy time
    expect(JSON.stringify(fromIndex.userPoolId)).toMatch(/Vigia-pr-7-Auth|UserPool/);
    expect(String(fromIndex.apiUrl)).toMatch(/^https:\/\/\{.*\}\.execute-api\./);
    expect(fromIndex).toMatchObject({ stage: 'pr-7', brandName: 'Vigía' });
    // substituted values are JSON-encoded, as for config.json
    expect(index.markersConfig).toMatchObject({ jsonEscape: true });
    expect(config.markersConfig).toMatchObject({ jsonEscape: true });
  });
});
