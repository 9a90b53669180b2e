/**
 * CDK app entry point (`cdk.json` → `node --import tsx bin/app.ts`).
 *
 * Context: `stage` (default `dev`; must match `^[a-z][a-z0-9-]{1,20}$`), e.g.
 *   npx cdk synth -c stage=pr-7 --no-notices
 * Environment: account/region from `CDK_DEFAULT_ACCOUNT` / `CDK_DEFAULT_REGION` when both are set (the CLI
 * sets them from your credentials), otherwise the app is environment-agnostic (synth works offline).
 * An invalid stage makes the app exit with status 1 and a message on stderr.
 */
import { App } from 'aws-cdk-lib';
import { DEFAULT_STAGE, InvalidStageError } from '../infra/stage-config.js';
import { addVigiaStacks } from '../infra/vigia-app.js';

const app = new App();
const raw: unknown = app.node.tryGetContext('stage') ?? DEFAULT_STAGE;
const stage = String(raw);
const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;

try {
  addVigiaStacks(app, { stage, ...(account && region ? { env: { account, region } } : {}) });
} catch (e) {
  if (e instanceof InvalidStageError) {
    console.error(e.message);
    process.exit(1);
  }
  throw e;
}
app.synth();
