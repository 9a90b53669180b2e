/**
 * Api stack (`Vigia-<stage>-Api`): the business REST API (API Gateway `RestApi` named
 * `vigia-<stage>-api`, stage name = Vigía stage) and one Lambda function per `HANDLER_NAMES` entry.
 *
 * Shape (source of truth: `lambdas/contract/routes.ts`):
 *  - one resource/method per `ROUTES` row, each behind a `CognitoUserPoolsAuthorizer` that reads the
 *    **ID token** from the `Authorization` header; claims reach the handler under
 *    `event.requestContext.authorizer.claims`, every value a string (docs/platform.md#api-gateway-and-the-cognito-authorizer);
 *  - Lambda proxy integration to `vigia-<stage>-<handler>` (Node.js 24, arm64, esbuild-bundled locally —
 *    never Docker — minified ESM with source maps and `NODE_OPTIONS=--enable-source-maps`);
 *  - Lambda environment: built by `lambdaEnvironment` (lambdas/config.ts, where the variable names are
 *    spelled) from the stage, the table name, the CORS origins (the site origin first, then the stage's
 *    extra origins) and allowed headers, the log level and the retention of time-series items (the stage's
 *    `dataRetention`); plus `NODE_OPTIONS`;
 *  - IAM: explicit statements on the table ARN and on the ARNs of exactly the indexes the function's code
 *    queries (`indexesOf`, lambdas/data/access-patterns.ts; no `grant*()`, which adds wildcard index ARNs —
 *    cdk-nag IAM5). Transactions need no action of their own: DynamoDB authorises
 *    each `TransactWriteItems` element as PutItem/UpdateItem/DeleteItem/ConditionCheckItem (AWS DynamoDB
 *    developer guide, "Using IAM with DynamoDB transactions"); there is no `dynamodb:TransactWriteItems`
 *    IAM action;
 *  - CORS preflight (OPTIONS, no authorizer) for the portal origin plus the stage's extra origins, allowing
 *    the request headers of `CORS_ALLOW_HEADERS` (lambdas/config.ts, the one list the Lambdas and the local
 *    gateway also use);
 *  - gateway responses (authorizer 401, 403, throttling, bad body, DEFAULT_4XX/5XX, …) carry CORS headers
 *    and the API's error body `{"code","message","requestId"}` with codes from `ERROR_STATUS`
 *    (`lambdas/contract/schemas.ts`), e.g. a missing/expired ID token → 401 `UNAUTHORIZED`;
 *  - access logs as JSON in a log group with a generated name (so a failed first create can be retried,
 *    docs/platform.md#retained-resources; written with the account's API Gateway CloudWatch role of
 *    `account-stack.ts`); stage throttling and log retention from `stage-config.ts`; a request validator (parameters + body; POST/PATCH bodies must be
 *    JSON objects; anything finer is validated in the Lambda against the route row's schemas,
 *    `lambdas/contract/routes.ts`);
 *  - Lambda active tracing (X-Ray; the Lambda service samples, no tracing SDK in the bundle) per stage. (The
 *    accepted heartbeats are an EMF metric of the ingest function, `lambdas/triggers/job-metrics.ts`; no metric
 *    filter: docs/platform.md#alarms.)
 */
import { ArnFormat, type CfnElement, CfnOutput, Duration, Stack, type StackProps, Token, Validations } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  AuthorizationType,
  CognitoUserPoolsAuthorizer,
  EndpointType,
  IdentitySource,
  JsonSchemaType,
  LambdaIntegration,
  LogGroupLogDestination,
  type Model,
  RequestValidator,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { IUserPool } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { CORS_ALLOW_HEADERS, lambdaEnvironment } from '../lambdas/config.js';
import { HANDLER_NAMES, ROUTES, type HandlerName } from '../lambdas/contract/routes.js';
import { CORS_MAX_AGE_SECONDS, FUNCTION_LIMITS, GATEWAY_RESPONSES } from '../lambdas/contract/platform-limits.js';
import type { ErrorCode } from '../lambdas/contract/schemas.js';
import { COGNITO_ADMIN_ACTIONS, COGNITO_ASSIGNEE_ACTIONS } from '../lambdas/data/cognito-users.js';
import { jobMetricNamespace } from '../lambdas/triggers/job-metrics.js';
import { COGNITO_IDP_ADMIN_ACTIONS } from '../lambdas/data/cognito-identity-providers.js';
import { SECRETS_ACTIONS } from '../lambdas/data/secrets.js';
import { ATTACHMENT_OBJECT_ACTIONS } from '../lambdas/data/attachment-store.js';
import { idpSecretPrefix } from './federation-config.js';
import { indexesOf } from '../lambdas/data/access-patterns.js';
import { acknowledgeTracingWildcard, LAMBDA_RUNTIME, lambdaDefaults } from './lambda-defaults.js';
import { SlaWatch } from './sla-watch.js';
import { MonthlyReportMail } from './monthly-report-mail.js';
import { NotificationDigest } from './notification-digest.js';
import { NotificationsConsumer } from './notifications.js';
import { ATTACHMENTS_PREFIX, AttachmentsBucket } from './attachments-bucket.js';
import { autoDeleteProviderLogGroup } from './hosting-stack.js';
import { physicalName, type StageConfig } from './stage-config.js';

/** Lambda runtime of the API functions (one value for every function: infra/lambda-defaults.ts). */
export { LAMBDA_RUNTIME };

/**
 * Table actions per handler: `read` = GetItem/BatchGetItem/Query; `readwrite` adds item writes; a list = `read`
 * plus exactly those writes. Every call is evaluated against the result by the runtime IAM check
 * (scripts/aws-rules/recorder.ts), which found `account` writing its read marker, and `reports` auditing its CSV
 * exports, with a `read` role.
 */
export const HANDLER_TABLE_ACCESS: Record<HandlerName, 'read' | 'readwrite' | readonly (typeof TABLE_WRITE_ACTIONS)[number][]> = {
  // POST /activity/read: the caller's last-seen marker (one PutItem)
  account: ['dynamodb:PutItem'],
  // tenant registry writes and audit entries
  admin: 'readwrite',
  // acknowledging an alarm is a conditional UpdateItem
  devices: 'readwrite',
  incidents: 'readwrite',
  // collectors: heartbeats, alarms raise/clear (ingest routes, IAM-authorised)
  ingest: 'readwrite',
  // acknowledging an Office 365 alert: the alert's UpdateItem, its console entries and audit entry (PutItem), one transaction
  office365: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
  // status changes of recommendations
  recommendations: 'readwrite',
  // a CSV export of a report or of the analytics is audited (`export.report`, `export.analytics`: one PutItem)
  reports: ['dynamodb:PutItem'],
  // notification preferences and webhooks (PutItem/DeleteItem of the caller's tenant's items)
  notifications: 'readwrite',
};

export const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;
export const TABLE_WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
] as const;

/**
 * Gateway responses rewritten into the API's error shape, from the one declaration `GATEWAY_RESPONSES`
 * (lambdas/contract/platform-limits.ts, which the local gateway answers from too). `statusCode` is set where
 * API Gateway's own status differs from `ERROR_STATUS` (e.g. an unknown path or method is API Gateway's 403
 * "Missing Authentication Token", returned as 404 NOT_FOUND). AWS: "Gateway response types for API Gateway"
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html).
 */
export const GATEWAY_ERRORS: ReadonlyArray<{ type: ResponseType; code: ErrorCode; statusCode?: string }> = GATEWAY_RESPONSES.map((r) => ({
  type: ResponseType.of(r.type),
  code: r.code,
  ...(r.statusCode !== undefined ? { statusCode: String(r.statusCode) } : {}),
}));

/** Mapping template of a gateway response: `{"code":…,"message":…,"requestId":…}` (message is JSON-escaped by API Gateway). */
export function gatewayErrorTemplate(code: ErrorCode): string {
  return `{"code":"${code}","message":$context.error.messageString,"requestId":"$context.requestId"}`;
}

/** CloudWatch namespace of the stage's custom metrics (`Vigia/<stage>`; defined once, where the jobs publish into it). */
export const metricNamespace = jobMetricNamespace;

export interface ApiStackProps extends StackProps {
  readonly config: StageConfig;
  readonly userPool: IUserPool;
  /** The portal's app client id: the only `aud` whose ID tokens the Lambdas accept (docs/api.md#identity). */
  readonly userPoolClientId: string;
  readonly table: ITable;
  /** The portal's origin, `https://<distribution domain>` (from the Hosting stack). */
  readonly siteOrigin: string;
}

export class ApiStack extends Stack {
  readonly api: RestApi;
  readonly functions: Record<HandlerName, NodejsFunction>;
  /** Invoke URL of the API stage without a trailing slash, e.g. `https://abc.execute-api.eu-west-1.amazonaws.com/prod`. */
  readonly apiUrl: string;
  /** execute-api:Invoke on the collector ingest routes only (attach to the collectors' IAM principal). */
  readonly collectorPolicy: ManagedPolicy;
  /** Notification delivery: the stream consumer, its DLQ and the outbox sweep (infra/notifications.ts). */
  readonly notifications: NotificationsConsumer;
  /** The daily digest e-mail job (infra/notification-digest.ts). */
  readonly notificationDigest: NotificationDigest;
  readonly monthlyReportMail: MonthlyReportMail;
  /** The scheduled SLA job writing `sla.*` activity events (infra/sla-watch.ts). */
  readonly slaWatch: SlaWatch;
  /** Incident attachments (infra/attachments-bucket.ts); the incidents function reads and writes `tenants/*` only. */
  readonly attachments: AttachmentsBucket;

  /** The portal's app client id, given to every function (`userPoolClientIds`). */
  private readonly userPoolClientId: string;
  /** The pool the admin Lambda administers (its id in the environment, its ARN in the role's policy). */
  private readonly userPoolId: string;
  private readonly userPoolArn: string;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { config, table } = props;
    this.userPoolClientId = props.userPoolClientId;
    this.userPoolId = props.userPool.userPoolId;
    this.userPoolArn = props.userPool.userPoolArn;
    const allowOrigins = [props.siteOrigin, ...config.extraCorsOrigins];

    // Attachments (docs/api.md#attachments): the incidents function presigns uploads and downloads under `tenants/*`.
    this.attachments = new AttachmentsBucket(this, 'Attachments', {
      allowOrigins,
      removalPolicy: config.removalPolicy,
      autoDeleteObjects: config.autoDeleteObjects,
      stage: config.stage,
    });
    // CDK's auto-delete provider logs to a group with the stage's retention (as the Hosting stack's).
    if (config.autoDeleteObjects) autoDeleteProviderLogGroup(this, config);
    this.functions = Object.fromEntries(
      HANDLER_NAMES.map((name) => [name, this.createFunction(name, config, table, allowOrigins)]),
    ) as Record<HandlerName, NodejsFunction>;
    this.notifications = new NotificationsConsumer(this, 'NotificationDelivery', {
      config,
      table,
      siteOrigin: props.siteOrigin,
      userPoolId: this.userPoolId,
      userPoolArn: this.userPoolArn,
      tableActions: [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS],
      runtime: LAMBDA_RUNTIME,
    });
    // The daily digest e-mail: EventBridge schedule → Lambda (docs/notifications.md#daily-digest). Its id keeps
    // the notification functions' `NotificationDelivery` prefix.
    this.notificationDigest = new NotificationDigest(this, 'NotificationDeliveryDigest', {
      config,
      table,
      siteOrigin: props.siteOrigin,
      userPoolId: this.userPoolId,
      userPoolArn: this.userPoolArn,
    });
    // The monthly report e-mail: EventBridge schedule on the 1st → Lambda (docs/notifications.md#monthly-report-e-mail).
    this.monthlyReportMail = new MonthlyReportMail(this, 'MonthlyReportMail', {
      config,
      table,
      siteOrigin: props.siteOrigin,
      userPoolId: this.userPoolId,
      userPoolArn: this.userPoolArn,
    });
    // The SLA job: EventBridge schedule → Lambda (docs/notifications.md#sla-job).
    this.slaWatch = new SlaWatch(this, 'SlaWatch', { config, table, runtime: LAMBDA_RUNTIME });

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });

    this.api = new RestApi(this, 'Api', {
      restApiName: physicalName(config.stage, 'api'),
      description: `Vigía business API (${config.stage})`,
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      cloudWatchRole: false,
      deployOptions: {
        stageName: config.stage,
        throttlingRateLimit: config.throttling.rateLimit,
        throttlingBurstLimit: config.throttling.burstLimit,
        metricsEnabled: true,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            requestId: AccessLogField.contextRequestId(),
            requestTime: AccessLogField.contextRequestTime(),
            ip: AccessLogField.contextIdentitySourceIp(),
            userAgent: AccessLogField.contextIdentityUserAgent(),
            httpMethod: AccessLogField.contextHttpMethod(),
            resourcePath: AccessLogField.contextResourcePath(),
            protocol: AccessLogField.contextProtocol(),
            status: AccessLogField.contextStatus(),
            responseLength: AccessLogField.contextResponseLength(),
            responseLatencyMs: AccessLogField.contextResponseLatency(),
            integrationLatencyMs: AccessLogField.contextIntegrationLatency(),
            sub: AccessLogField.contextAuthorizerClaims('sub'),
            errorType: AccessLogField.contextErrorResponseType(),
            error: AccessLogField.contextErrorMessage(),
          }),
        ),
      },
      defaultCorsPreflightOptions: {
        allowOrigins,
        allowHeaders: [...CORS_ALLOW_HEADERS],
        allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
        maxAge: Duration.seconds(CORS_MAX_AGE_SECONDS),
      },
    });

    const authorizer = new CognitoUserPoolsAuthorizer(this, 'Authorizer', {
      authorizerName: physicalName(config.stage, 'cognito'),
      cognitoUserPools: [props.userPool],
      identitySource: IdentitySource.header('Authorization'),
    });

    const validator = new RequestValidator(this, 'RequestValidator', {
      restApi: this.api,
      requestValidatorName: physicalName(config.stage, 'validator'),
      validateRequestBody: true,
      validateRequestParameters: true,
    });
    const jsonObject: Model = this.api.addModel('JsonObject', {
      contentType: 'application/json',
      modelName: 'JsonObject',
      schema: { type: JsonSchemaType.OBJECT },
    });

    const integrations = Object.fromEntries(
      HANDLER_NAMES.map((name) => [name, new LambdaIntegration(this.functions[name], { allowTestInvoke: false })]),
    ) as Record<HandlerName, LambdaIntegration>;

    for (const route of ROUTES) {
      const requestParameters: Record<string, boolean> = {};
      for (const m of route.path.matchAll(/\{([^}]+)\}/g)) requestParameters[`method.request.path.${m[1]}`] = true;
      if (route.tenantScoped) requestParameters['method.request.querystring.tenant'] = false;
      const hasBody = (['POST', 'PUT', 'PATCH'] as readonly string[]).includes(route.method);
      const method = this.api.root.resourceForPath(route.path).addMethod(route.method, integrations[route.handler], {
          operationName: route.operationId,
          // Collector routes (`auth: 'iam'`) are SigV4-signed by the collectors' IAM role; the rest need an ID token.
          ...(('auth' in route ? route.auth : 'cognito') === 'iam'
            ? { authorizationType: AuthorizationType.IAM }
            : { authorizer, authorizationType: AuthorizationType.COGNITO }),
          requestValidator: validator,
          requestParameters,
          ...(hasBody ? { requestModels: { 'application/json': jsonObject } } : {}),
        });
      if ('auth' in route && route.auth === 'iam') {
        Validations.of(method).acknowledge({
          id: 'AwsSolutions-COG4',
          reason: 'Collector ingest routes are called by the security company\'s collectors with SigV4 (AuthorizationType.IAM), not by users.',
        });
      }
    }

    // Errors produced by API Gateway itself (authorizer, validation, throttling) in our error shape.
    const corsOrigin =
      config.extraCorsOrigins.length === 0 ? `'${props.siteOrigin}'` : 'method.request.header.Origin';
    for (const { type, code, statusCode } of GATEWAY_ERRORS) {
      this.api.addGatewayResponse(`Gw${type.responseType}`, {
        type,
        ...(statusCode ? { statusCode } : {}),
        responseHeaders: {
          'Access-Control-Allow-Origin': corsOrigin,
          'Access-Control-Allow-Headers': `'${CORS_ALLOW_HEADERS.join(',')}'`,
          Vary: "'Origin'",
        },
        templates: { 'application/json': gatewayErrorTemplate(code) },
      });
    }

    this.apiUrl = `https://${this.api.restApiId}.execute-api.${this.region}.${this.urlSuffix}/${config.stage}`;

    Validations.of(this.api).acknowledge(
      {
        id: 'AwsSolutions-APIG3',
        reason: 'Every business method requires a Cognito ID token and the stage is throttled; WAF can be attached per account later.',
      },
      {
        id: 'AwsSolutions-APIG6',
        reason: 'Execution logs would go to a log group API Gateway creates outside the stack (never expiring, left behind by previews); JSON access logs are enabled and the Lambdas log every request (docs/platform.md#the-account-stack).',
      },
    );
    // CORS preflight (OPTIONS) must be unauthenticated: browsers never send credentials with it.
    for (const m of this.api.methods.filter((x) => x.httpMethod === 'OPTIONS')) {
      Validations.of(m).acknowledge(
        { id: 'AwsSolutions-APIG4', reason: 'CORS preflight (OPTIONS, mock integration): browsers send it without credentials.' },
        { id: 'AwsSolutions-COG4', reason: 'CORS preflight (OPTIONS, mock integration): browsers send it without credentials.' },
      );
    }

    new CfnOutput(this, 'ApiUrl', { value: this.apiUrl, description: 'Business API base URL (no trailing slash)' });

    // What a collector needs: execute-api:Invoke on exactly the ingest routes of this stage (no wildcard).
    // Attach it to the collectors' IAM role or user; customers never get it.
    const ingestRoutes = ROUTES.filter((r) => 'auth' in r && r.auth === 'iam');
    this.collectorPolicy = new ManagedPolicy(this, 'CollectorInvokePolicy', {
      managedPolicyName: physicalName(config.stage, 'collector-invoke'),
      description: `Vigia ${config.stage}: SigV4 calls to the collector ingest routes only`,
      statements: [
        new PolicyStatement({
          actions: ['execute-api:Invoke'],
          resources: ingestRoutes.map((r) => this.api.arnForExecuteApi(r.method, r.path, this.api.deploymentStage.stageName)),
        }),
      ],
    });
    new CfnOutput(this, 'CollectorPolicyArn', {
      value: this.collectorPolicy.managedPolicyArn,
      description: 'Managed policy to attach to the collectors (execute-api:Invoke on the ingest routes)',
    });
  }

  private createFunction(
    name: HandlerName,
    config: StageConfig,
    table: ITable,
    allowOrigins: readonly string[],
  ): NodejsFunction {
    const Name = name[0]!.toUpperCase() + name.slice(1);
    const functionName = physicalName(config.stage, name);
    // Generated name (the function logs to it through its logging config), so a retained log group never
    // blocks the retry of a failed first create.
    const logGroup = new LogGroup(this, `${Name}Logs`, {
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });
    // Own role: only its log group and the table (no AWSLambdaBasicExecutionRole managed policy, cdk-nag IAM4).
    const role = new Role(this, `${Name}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Vigía ${name} API function (${config.stage})`,
    });
    logGroup.grantWrite(role);
    const access = HANDLER_TABLE_ACCESS[name];
    const tableActions = [...TABLE_READ_ACTIONS, ...(access === 'readwrite' ? TABLE_WRITE_ACTIONS : access === 'read' ? [] : access)];
    role.addToPrincipalPolicy(new PolicyStatement({ actions: tableActions, resources: [table.tableArn] }));
    // Query on exactly the indexes this function's code queries (lambdas/data/access-patterns.ts).
    const indexes = indexesOf(name);
    if (indexes.length > 0) {
      role.addToPrincipalPolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: indexes.map((i) => `${table.tableArn}/index/${i}`) }));
    }

    if (name === 'admin') {
      // Exactly the Cognito administrative actions the admin Lambda calls, on this user pool only.
      role.addToPrincipalPolicy(new PolicyStatement({ actions: [...COGNITO_ADMIN_ACTIONS], resources: [this.userPoolArn] }));
      if (config.federation?.adminConfiguredProviders) {
        // Staff-configured identity providers (docs/api.md#tenant-identity-provider): the providers and the app
        // client of this user pool only, and the client secrets under this stage's name prefix only.
        role.addToPrincipalPolicy(new PolicyStatement({ actions: [...COGNITO_IDP_ADMIN_ACTIONS], resources: [this.userPoolArn] }));
        role.addToPrincipalPolicy(
          new PolicyStatement({
            actions: [...SECRETS_ACTIONS],
            // Secrets Manager appends `-` and 6 random characters to a secret's ARN: the prefix ends with `*`.
            resources: [this.formatArn({ service: 'secretsmanager', resource: 'secret', resourceName: `${idpSecretPrefix(config.stage)}*`, arnFormat: ArnFormat.COLON_RESOURCE_NAME })],
          }),
        );
        // cdk-nag names the resource as synthesized: pseudo parameters on an environment-agnostic stage, literals otherwise.
        const secretArnShown = Token.isUnresolved(this.account)
          ? `arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:${idpSecretPrefix(config.stage)}*`
          : `arn:${this.partition}:secretsmanager:${this.region}:${this.account}:secret:${idpSecretPrefix(config.stage)}*`;
        Validations.of(role).acknowledge({
          id: `AwsSolutions-IAM5[Resource::${secretArnShown}]`,
          reason:
            'One secret per tenant, created at run time by staff: the names are known only by their stage prefix (vigia/<stage>/identity-providers/<tenant>), and Secrets Manager appends a random suffix to every secret ARN.',
        });
      }
    }
    if (name === 'incidents') {
      // Assignee validation: ListUsersInGroup (tenant group and staff) on this user pool only (docs/api.md#assignees).
      role.addToPrincipalPolicy(new PolicyStatement({ actions: [...COGNITO_ASSIGNEE_ACTIONS], resources: [this.userPoolArn] }));
      // Attachments: a presigned request carries the signer's permissions, so S3 honours the presigned POST and GET
      // (and HeadObject answers) only under `tenants/*` — least privilege: no List, no Delete, no other prefix.
      role.addToPrincipalPolicy(
        new PolicyStatement({ actions: [...ATTACHMENT_OBJECT_ACTIONS], resources: [this.attachments.bucket.arnForObjects(`${ATTACHMENTS_PREFIX}*`)] }),
      );
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${this.getLogicalId(this.attachments.bucket.node.defaultChild as CfnElement)}.Arn>/${ATTACHMENTS_PREFIX}*]`,
        reason: 'Attachment keys are created at run time (tenants/<tenantId>/incidents/<incidentId>/<attachmentId>); the grant is limited to that prefix, and the function checks the tenant before signing.',
      });
    }

    acknowledgeTracingWildcard(role, config);
    return new NodejsFunction(this, `${Name}Function`, {
      ...lambdaDefaults(
        config,
        `handlers/${name}.ts`,
        lambdaEnvironment({
          stage: config.stage,
          tableName: table.tableName,
          allowedOrigins: [...allowOrigins],
          allowedHeaders: [...CORS_ALLOW_HEADERS],
          userPoolClientIds: [this.userPoolClientId],
          ...(name === 'admin' || name === 'incidents' ? { userPoolId: this.userPoolId } : {}),
          ...(name === 'incidents' ? { attachments: { bucket: this.attachments.bucket.bucketName } } : {}),
          ...(name === 'admin' && config.federation?.adminConfiguredProviders
            ? {
                identityProviders: {
                  secretPrefix: idpSecretPrefix(config.stage),
                  oauthDomain: `${config.federation.domainPrefix}.auth.${this.region}.amazoncognito.com`,
                  staffEmailDomains: [...(config.federation.staffEmailDomains ?? [])],
                },
              }
            : {}),
          ...(name === 'admin' && config.federation?.enterprise.length
            ? { stageProviders: config.federation.enterprise.map((e) => ({ name: e.name, type: e.type, tenant: e.tenant, emailDomains: [...e.emailDomains] })) }
            : {}),
          ...(name === 'notifications' ? { notifications: { siteUrl: allowOrigins[0], allowLocalWebhooks: false } } : {}),
          logLevel: config.logLevel,
          retention: { ...config.dataRetention },
        }),
      ),
      functionName,
      description: `Vigía API: ${name} routes (${config.stage})`,
      // One declaration for the stack and the local gateway (lambdas/contract/platform-limits.ts).
      memorySize: FUNCTION_LIMITS[name].memoryMB,
      timeout: Duration.seconds(FUNCTION_LIMITS[name].timeoutSeconds),
      role,
      logGroup,
    });
  }
}
