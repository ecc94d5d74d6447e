// One structured JSON logger (Powertools). Never pass it secrets, tokens, keys or request bodies.
// Each function's Middy chain injects the Lambda context into it and appends the request's keys
// (lib/http/log-keys.ts, the workers' per-message keys), dropped when the invocation ends.
// Its lines carry the invocation's context only as far as a reader needs it (lib/log-format.ts).
import { Logger } from '@aws-lambda-powertools/logger';
import { LogLineFormatter } from './log-format.ts';

export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'payments-gateway',
  logFormatter: new LogLineFormatter(),
});
