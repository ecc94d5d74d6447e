// Runs before every test file: the environment the global setup's stack set (endpoints, table and
// secret names, TEST_* values), so that modules read it at import as they would in the stack.
import { inject } from 'vitest';

Object.assign(process.env, inject('stackEnv'), { LOG_LEVEL: inject('testLogLevel') });
// Inherited from the global setup's process, where the stack shares its process between invocations
// (local/invocation.ts); a test file runs a function as one invocation at a time, unless it imports that.
delete process.env.AWS_LAMBDA_MAX_CONCURRENCY;
