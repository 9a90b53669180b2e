/**
 * Loading and validating the portal's runtime configuration, `/config.json` (shape: `PortalConfig` in
 * `lambdas/contract/portal-config.ts`; written by the PortalDeployment stack in AWS and by the local stack,
 * `scripts/local/stack.ts`, offline).
 */
import type { PortalConfig } from '../../../../lambdas/contract/portal-config';

export type { PortalConfig };

/**
 * The zod schema is loaded as its own chunk, in parallel with the `/config.json` request: classic zod
 * is ~28 KB gzip and not tree-shakable, and the signed-in chunk shares it (incident form validation).
 */
const loadSchema = () => import('./portal-config-schema').then((m) => m.PortalConfig);

/** Text shown instead of the portal when the configuration is missing or invalid (docs/portal.md#configuration-error). */
export const CONFIG_ERROR_TEXT = 'Configuration error (see console) – please contact the administrator';

/** Why `/config.json` could not be used; `message` is for the console, never for end users. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Fetches `url` (default `/config.json`, never cached) and validates it against `PortalConfig`.
 *
 * @returns the parsed configuration.
 * @throws ConfigError when the request fails, the status is not 2xx, the body is not JSON, or the
 *   JSON does not match `PortalConfig` (the message lists the offending fields).
 */
export async function loadPortalConfig(
  url = '/config.json',
  fetchImpl: typeof fetch = fetch,
): Promise<PortalConfig> {
  const schema = loadSchema();
  schema.catch(() => undefined); // handled below; avoid an unhandled rejection if fetch fails first
  let response: Response;
  try {
    response = await fetchImpl(url, { cache: 'no-store', headers: { Accept: 'application/json' } });
  } catch (err) {
    throw new ConfigError(`cannot fetch ${url}: ${String(err)}`);
  }
  if (!response.ok) throw new ConfigError(`cannot fetch ${url}: HTTP ${response.status}`);
  let json: unknown;
  try {
    json = await response.json();
  } catch (err) {
    throw new ConfigError(`${url} is not valid JSON: ${String(err)}`);
  }
  let PortalConfigSchema;
  try {
    PortalConfigSchema = await schema;
  } catch (err) {
    throw new ConfigError(`cannot load the configuration schema: ${String(err)}`);
  }
  const parsed = PortalConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new ConfigError(`${url} is invalid: ${issues}`);
  }
  return parsed.data;
}
