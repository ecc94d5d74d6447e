// Secrets Manager's rotation function for the key-material secrets (lib/keys/rotation.ts): the token
// signing ring (publishing its public JWKS), the cursor key and each environment's key-encryption key.
// Secrets Manager invokes it once per step of a rotation: on the schedule, on the first deploy, and when
// the admin CLI's `keys rotate` calls RotateSecret. It returns nothing; a step that throws is retried.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import middy from '@middy/core';
import type { SecretsManagerRotationEvent } from 'aws-lambda';
import { config } from '../../lib/config.ts';
import { rotationStep } from '../../lib/keys/rotation.ts';
import { logger } from '../../lib/log.ts';

config();
const client = new SecretsManagerClient({ maxAttempts: 3 });

export const handler = middy(async (event: SecretsManagerRotationEvent): Promise<void> => {
  const { STAGE, TOKEN_JWKS_SECRET_ID } = config();
  await rotationStep(event, { client, stage: STAGE, jwksSecretId: TOKEN_JWKS_SECRET_ID });
}).use(injectLambdaContext(logger, { resetKeys: true }));
