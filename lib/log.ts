// One structured JSON logger (Powertools). Never pass it secrets, tokens, keys or request bodies.
// Each function's Middy chain injects the Lambda context into it and appends the request's keys
// (lib/http/log-keys.ts, the workers' per-message keys), dropped when the invocation ends.
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'payments-gateway' });
