/**
 * The portal bench waits for the dashboard's data by CSS selectors (`DASHBOARD_DATA`). When the dashboard's
 * markup changed (`dash-*` → `kpi-*` sections) the bench only timed out after 20 s per run and printed
 * 0.0 KB of dashboard JS; this keeps the selectors and the dashboard's source in step.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_DATA } from '../../scripts/bench/portal.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dashboard = readFileSync(path.join(root, 'web/src/features/dashboard/DashboardPage.tsx'), 'utf8');

describe('portal bench: dashboard data selectors', () => {
  it.each(DASHBOARD_DATA)('%s names a section and a class the dashboard renders', (selector) => {
    const m = /^section\[aria-labelledby="([^"]+)"\] \.([\w-]+)$/.exec(selector);
    expect(m, 'selector shape: section[aria-labelledby="…"] .class').not.toBeNull();
    const [, labelledBy, cls] = m!;
    const start = dashboard.indexOf(`aria-labelledby="${labelledBy}"`);
    expect(start, `DashboardPage has no section labelled by ${labelledBy}`).toBeGreaterThan(-1);
    const next = dashboard.indexOf('aria-labelledby=', start + 1);
    const section = dashboard.slice(start, next === -1 ? undefined : next);
    expect(section).toContain(`className="${cls}"`);
  });
});
