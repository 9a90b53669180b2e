/**
 * How every API handler is bundled — one source of truth for the CDK `NodejsFunction` `bundling` props
 * (`infra/api-stack.ts`) and the equivalent esbuild options used outside CDK (the benchmark's Lambda
 * cold-start proxy in `scripts/bench/coldstart.ts`, `test/infra/lambda-bundles.test.ts`).
 *
 * Everything is bundled (`externalModules: []`, where CDK's default leaves `@aws-sdk/*` to the runtime):
 * the handlers talk to DynamoDB through aws-lite (`lambdas/data/table/client.ts`) and marshal with
 * `@aws-sdk/util-dynamodb` (~5 KB, declared in package.json); the few functions that call Cognito, S3 or SES
 * bundle those AWS SDK v3 clients. Every AWS package comes at the version our lockfile pins, never the
 * runtime's. Minified ESM with linked source maps (`HANDLER_NODE_OPTIONS` enables them on the functions).
 */
import type { BuildOptions } from 'esbuild';
import type { BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';

/** Some CommonJS dependencies (aws-lite) call require(); give the ESM bundle one. */
const REQUIRE_BANNER = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

/** esbuild target of the Lambda runtime (`LAMBDA_RUNTIME` = Node.js 24 in `lambda-defaults.ts`). */
export const HANDLER_TARGET = 'node24';

/** `NODE_OPTIONS` of every API function: stack traces through the linked source maps. */
export const HANDLER_NODE_OPTIONS = '--enable-source-maps';

/** `NodejsFunction` bundling props of every API handler. */
export const HANDLER_BUNDLING = {
  forceDockerBundling: false,
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  format: 'esm' as OutputFormat,
  target: HANDLER_TARGET,
  mainFields: ['module', 'main'],
  externalModules: [],
  banner: REQUIRE_BANNER,
} satisfies BundlingOptions;

/**
 * The esbuild options `NodejsFunction` derives from `HANDLER_BUNDLING` (add `entryPoints` and `outfile`):
 * CDK turns `sourceMap: true` into esbuild `--sourcemap`, i.e. a linked map (a `sourceMappingURL` comment),
 * which Node loads at import under `--enable-source-maps`.
 */
export function handlerEsbuildOptions(): BuildOptions {
  return {
    bundle: true,
    platform: 'node',
    minify: HANDLER_BUNDLING.minify,
    format: 'esm',
    target: HANDLER_BUNDLING.target,
    mainFields: [...HANDLER_BUNDLING.mainFields],
    external: [...HANDLER_BUNDLING.externalModules],
    sourcemap: 'linked',
    sourcesContent: HANDLER_BUNDLING.sourcesContent,
    banner: { js: HANDLER_BUNDLING.banner },
    logLevel: 'silent',
  };
}
