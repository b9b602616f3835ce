import { HubError, RefusedError, StateConflictError } from '../../infra/index.js';

/** Where a DynamoDB request went, for messages (the endpoint is already redacted). */
export interface DynamoTarget {
  table: string;
  region: string | undefined;
  endpoint: string | undefined;
}

/** The IAM actions the dynamodb backend uses; docs/deploy.md lists the same. */
export const DYNAMODB_RUNTIME_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:Query',
  'dynamodb:DescribeTable',
];
export const DYNAMODB_INIT_ACTIONS = ['dynamodb:CreateTable', 'dynamodb:DescribeTable'];

const where = (t: DynamoTarget) =>
  `table '${t.table}' (region ${t.region ?? 'from the AWS configuration'}${t.endpoint ? `, endpoint ${t.endpoint}` : ''})`;

const ACCESS_DENIED = new Set([
  'AccessDeniedException',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'ExpiredTokenException',
  'MissingAuthenticationTokenException',
]);

/**
 * An AWS SDK error as hub's taxonomy, with a message that says how to fix it: a missing table names
 * `hub state init`, a denied request the IAM actions, missing credentials or region the standard AWS settings.
 */
export function mapDynamoError(err: unknown, t: DynamoTarget, action: string, document?: string): HubError {
  if (err instanceof HubError) return err;
  const e = err as { name?: string; message?: string; code?: string; cause?: { code?: string } };
  const name = e.name ?? '';
  const details = {
    table: t.table,
    region: t.region,
    endpoint: t.endpoint,
    action,
    document,
    aws_error: name,
  };
  if (name === 'ConditionalCheckFailedException')
    return new StateConflictError(`document '${document}' changed since it was read`, { document });
  if (name === 'ResourceNotFoundException')
    return new RefusedError(
      `the DynamoDB ${where(t)} does not exist; create it with \`hub state init\` (needs dynamodb:CreateTable), or set state.dynamodb.table to an existing one`,
      { ...details, rule: 'dynamodb_table_exists' },
    );
  if (ACCESS_DENIED.has(name))
    return new RefusedError(
      `DynamoDB refused ${action} on ${where(t)} (${name}): check the AWS credentials and grant ${DYNAMODB_RUNTIME_ACTIONS.join(', ')} on the table (docs/deploy.md)`,
      { ...details, rule: 'dynamodb_permission' },
    );
  if (name === 'CredentialsProviderError')
    return new RefusedError(
      'no AWS credentials for the dynamodb state backend: set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or run with an instance or task role',
      { ...details, rule: 'aws_credentials' },
    );
  if (/region is missing/i.test(e.message ?? ''))
    return new RefusedError(
      'no AWS region for the dynamodb state backend: set AWS_REGION (or a profile with a region), or state.dynamodb.region',
      { ...details, rule: 'aws_region' },
    );
  const code = e.code ?? e.cause?.code;
  const why = code ? `${code}` : `${name || 'error'}: ${e.message ?? String(err)}`;
  return new HubError('internal', `DynamoDB ${action} on ${where(t)} failed: ${why}`, details);
}
