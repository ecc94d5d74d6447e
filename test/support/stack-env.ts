// Runs before every test file: the environment the global setup's stack set (endpoints, table and
// secret names, TEST_* values), so that modules read it at import as they would in the stack.
import { inject } from 'vitest';

Object.assign(process.env, inject('stackEnv'), { LOG_LEVEL: inject('testLogLevel') });
