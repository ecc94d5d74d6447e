// Every API function's operations, by function name. They live apart from functions/api/<fn>.ts so that
// the OpenAPI generator (openapi) reads the very schemas that validate requests without building a
// handler, whose cold start validates the Lambda configuration.
import type { Operation } from '../http/api-function.ts';
import type { FunctionName, OperationOf, Route } from '../routes.ts';
import { assetsOperations } from './assets.ts';
import { authOperations } from './auth.ts';
import { beneficiariesOperations } from './beneficiaries.ts';
import { connectorsOperations } from './connectors.ts';
import { customersOperations } from './customers.ts';
import { developersOperations } from './developers.ts';
import { onrampOperations } from './onramp.ts';
import { paymentsOperations } from './payments.ts';
import { portalOperations } from './portal.ts';
import { providersOperations } from './providers.ts';
import { quotesOperations } from './quotes.ts';
import { sandboxOperations } from './sandbox.ts';
import { statementsOperations } from './statements.ts';
import { teamOperations } from './team.ts';
import { transactionsOperations } from './transactions.ts';
import { walletsOperations } from './wallets.ts';
import { webhooksOperations } from './webhooks.ts';

/** Any operation, as the generator sees it: its request schemas (and a handler it never calls). */
export type AnyOperation = Operation<unknown, unknown, unknown>;

export const operationsByFunction = {
  auth: authOperations,
  assets: assetsOperations,
  wallets: walletsOperations,
  beneficiaries: beneficiariesOperations,
  connectors: connectorsOperations,
  quotes: quotesOperations,
  payments: paymentsOperations,
  transactions: transactionsOperations,
  statements: statementsOperations,
  webhooks: webhooksOperations,
  sandbox: sandboxOperations,
  providers: providersOperations,
  customers: customersOperations,
  onramp: onrampOperations,
  portal: { ...portalOperations, ...teamOperations, ...developersOperations },
} satisfies { [F in FunctionName]: Record<OperationOf<F>, AnyOperation> };

/** The operation that serves a route of lib/routes.ts. */
export function operationFor(route: Pick<Route, 'fn' | 'operation'>): AnyOperation {
  const table: Record<string, AnyOperation> | undefined = (
    operationsByFunction as Record<string, Record<string, AnyOperation>>
  )[route.fn];
  const op = table?.[route.operation];
  if (!op) throw new Error(`lib/operations has no ${route.fn}.${route.operation}`);
  return op;
}
