// One structured JSON logger (Powertools). Never pass it secrets, tokens, keys or request bodies.
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'payments-gateway' });
