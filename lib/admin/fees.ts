// Business fee rows: what an association pays on an off-ramp connector for one transaction type,
// set by the platform team. The exact row wins over the connector's own fee in quotes, zero included.

import BigNumber from 'bignumber.js';
import { findAssociation } from '../auth/repo.ts';
import { findConnector } from '../connectors/repo.ts';
import { shortForm, type TransactionType, transactionTypeParam } from '../connectors/transaction-types.ts';
import { assetDecimals } from '../quotes/currencies.ts';
import { deleteFeeRow, listFeeRows, putFeeRow } from '../quotes/repo.ts';
import type { Environment, Tenant } from '../tenant.ts';
import { AdminRefusal } from './refusal.ts';

export interface FeeRowTarget {
  associationId: string;
  environment: Environment;
  connectorId: string;
  /** C2C, b2c, B_2_C… */
  transactionType: string;
}

function parseType(value: string): TransactionType {
  const parsed = transactionTypeParam.safeParse(value);
  if (!parsed.success)
    throw new AdminRefusal(`--transaction-type must be one of C2C, C2B, B2C, B2B (got ${value})`);
  return parsed.data;
}

async function tenantOrThrow(associationId: string, environment: Environment): Promise<Tenant> {
  const tenant = { associationId, environment };
  if (!(await findAssociation(tenant)))
    throw new AdminRefusal(`No association ${associationId} in ${environment}`);
  return tenant;
}

function decimal(name: string, value: string | undefined, maxDecimals: number, max?: number): string {
  if (value === undefined) return '0';
  if (!/^\d+(\.\d+)?$/.test(value)) throw new AdminRefusal(`--${name} must be a non-negative decimal number`);
  const number = new BigNumber(value);
  if ((number.decimalPlaces() ?? 0) > maxDecimals)
    throw new AdminRefusal(`--${name} must have at most ${maxDecimals} decimal places`);
  if (max !== undefined && number.gt(max)) throw new AdminRefusal(`--${name} must be at most ${max}`);
  return number.toFixed();
}

/** Adds or replaces the row; `percentage` and `fixed` default to 0 (at least one must be given). */
export async function setFeeRow(
  target: FeeRowTarget & { percentage?: string | undefined; fixed?: string | undefined },
  now = new Date(),
) {
  if (target.percentage === undefined && target.fixed === undefined)
    throw new AdminRefusal('Give --percentage and/or --fixed (0 for a free corridor)');
  const transactionType = parseType(target.transactionType);
  const tenant = await tenantOrThrow(target.associationId, target.environment);
  const connectorId = target.connectorId.toLowerCase();
  const connector = await findConnector(target.environment, connectorId);
  if (!connector) throw new AdminRefusal(`No connector ${connectorId} in ${target.environment}`);
  if (connector.direction !== 'OFF_RAMP')
    throw new AdminRefusal(
      `${connectorId} is an ${connector.direction} connector: fee rows apply to off-ramp connectors only`,
    );
  if (!connector.transactionTypes.some((t) => t.type === transactionType))
    throw new AdminRefusal(`${connectorId} does not list transaction type ${target.transactionType}`);
  const decimals = await assetDecimals(target.environment, connector.acceptedAsset);
  const row = {
    environment: tenant.environment,
    associationId: tenant.associationId,
    connectorId,
    transactionType,
    percentage: decimal('percentage', target.percentage, 4, 100),
    fixed: decimal('fixed', target.fixed, decimals),
    currency: connector.acceptedAsset,
    updatedAt: now.toISOString(),
  };
  await putFeeRow(row);
  // Echoed as the operator gives it and quotes show it: `B2C`, not the stored `B_2_C`.
  return { ...row, transactionType: shortForm(transactionType) };
}

/** Removes the row (quotes fall back to the connector's fee). */
export async function clearFeeRow(target: FeeRowTarget) {
  const transactionType = parseType(target.transactionType);
  const tenant = await tenantOrThrow(target.associationId, target.environment);
  const connectorId = target.connectorId.toLowerCase();
  const cleared = await deleteFeeRow(tenant, connectorId, transactionType);
  return {
    associationId: tenant.associationId,
    environment: tenant.environment,
    connectorId,
    transactionType: shortForm(transactionType),
    cleared,
  };
}

/** The rows as the operator gives and quotes show their type: `B2C`, not the stored `B_2_C`. */
export async function listAssociationFeeRows(associationId: string, environment: Environment) {
  const rows = await listFeeRows(await tenantOrThrow(associationId, environment));
  return rows.map((row) => ({ ...row, transactionType: shortForm(row.transactionType) }));
}
