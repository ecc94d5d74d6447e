// The one schema of an amount in a request body: a JSON number the ledger can hold exactly. Every
// route that takes an amount uses it, so none can let through what the ledger would refuse later.
import BigNumber from 'bignumber.js';
import * as z from '../zod.ts';
import { LEDGER_DECIMALS, MAX_AMOUNT } from './amounts.ts';

export const amountField = z.number('must be a number').check(
  z.superRefine((value, ctx) => {
    const amount = new BigNumber(String(value));
    if (amount.lte(0)) ctx.addIssue({ code: 'custom', message: 'must be greater than 0' });
    else if ((amount.decimalPlaces() ?? 0) > LEDGER_DECIMALS)
      ctx.addIssue({ code: 'custom', message: `must have at most ${LEDGER_DECIMALS} decimal places` });
    else if (amount.gt(MAX_AMOUNT))
      ctx.addIssue({
        code: 'custom',
        message: `must be at most ${MAX_AMOUNT.toFixed()} (what the ledger can hold)`,
      });
  }),
);
