import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Route } from '../routes.ts';
import type { Environment } from '../tenant.ts';

export type ApiEvent = APIGatewayProxyEventV2;
export type ApiResult = APIGatewayProxyStructuredResultV2;

/** Who is calling: resolved by the authentication middleware, never from a header the caller sets. */
export interface Caller {
  applicationId: string;
  environment: Environment;
  /** Set once a bearer token has been verified and its client resolved. */
  clientId?: string;
  /** The id of the API key the application presented (lib/auth/credentials.ts keyIdOf): never the key. */
  keyId?: string;
  associationId?: string;
  /** A provider (its signed notification): the connector whose secret signed the request. */
  connectorId?: string;
  /** A portal person (lib/people) calling with their own token: who they are and their role now. */
  person?: { email: string; role: 'viewer' | 'developer' | 'owner' };
}

export interface ApiContext extends Context {
  requestId: string;
  route: Route;
  caller: Caller;
  /** The request body's text as it arrived (json-body.ts), for routes that verify a signature over it. */
  rawBody?: string;
  /** Headers every answer to the request carries once it is counted (authenticate.ts: RateLimit…). */
  responseHeaders?: Record<string, string>;
}
