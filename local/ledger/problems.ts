// Horizon's error bodies (RFC 7807 problem JSON with Horizon's `type` URLs and titles).
import type { TxOutcome } from './results-xdr.ts';
import { resultCodes } from './results-xdr.ts';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  extras?: Record<string, unknown>;
}

const TYPE = 'https://stellar.org/horizon-errors/';

export function notFound(): Problem {
  return {
    type: `${TYPE}not_found`,
    title: 'Resource Missing',
    status: 404,
    detail:
      'The resource at the url requested was not found.  This usually occurs for one of two reasons:  ' +
      'The url requested is not valid, or no data in our database could be found with the parameters provided.',
  };
}

export function badRequest(invalidField: string, reason: string): Problem {
  return {
    type: `${TYPE}bad_request`,
    title: 'Bad Request',
    status: 400,
    detail: 'The request you sent was invalid in some way.',
    extras: { invalid_field: invalidField, reason },
  };
}

export function transactionMalformed(envelopeXdr: string, error: string): Problem {
  return {
    type: `${TYPE}transaction_malformed`,
    title: 'Transaction Malformed',
    status: 400,
    detail:
      'Horizon could not decode the transaction envelope in this request. A transaction should be an XDR ' +
      'TransactionEnvelope struct encoded using base64.  The envelope read from this request is echoed in the ' +
      '`extras.envelope_xdr` field of this response for your convenience.',
    extras: { envelope_xdr: envelopeXdr, error },
  };
}

export function transactionFailed(envelopeXdr: string, outcome: TxOutcome, resultXdr: string): Problem {
  return {
    type: `${TYPE}transaction_failed`,
    title: 'Transaction Failed',
    status: 400,
    detail:
      'The transaction failed when submitted to the stellar network. The `extras.result_codes` field on this ' +
      'response contains further details.  Descriptions of each code can be found at: ' +
      'https://developers.stellar.org/docs/data/horizon/api-reference/errors/http-status-codes/horizon-specific/transaction-failed',
    extras: { envelope_xdr: envelopeXdr, result_codes: resultCodes(outcome), result_xdr: resultXdr },
  };
}

export function methodNotAllowed(): Problem {
  return {
    type: `${TYPE}method_not_allowed`,
    title: 'Method Not Allowed',
    status: 405,
    detail: 'This resource does not support the request method.',
  };
}

export function serverError(): Problem {
  return {
    type: `${TYPE}server_error`,
    title: 'Internal Server Error',
    status: 500,
    detail: 'An error occurred while processing this request.',
  };
}

/**
 * stellar-core's TRY_AGAIN_LATER (its queue already holds a transaction of this source account). Horizon's
 * synchronous endpoint would keep waiting and time out (504); this ledger answers at once, with the code
 * spelled as a result code so a client classifies it like any other submission answer.
 */
export function transactionTryAgainLater(envelopeXdr: string, hash: string): Problem {
  return {
    type: `${TYPE}transaction_try_again_later`,
    title: 'Transaction Try Again Later',
    status: 503,
    detail:
      'The transaction was not accepted for now: a transaction of the same source account is already waiting ' +
      'for the next ledger. Submit it again once that ledger has closed.',
    extras: {
      envelope_xdr: envelopeXdr,
      hash,
      tx_status: 'TRY_AGAIN_LATER',
      result_codes: { transaction: 'tx_try_again_later' },
    },
  };
}

/** What a Horizon fleet that is down answers (the `unavailable` fault). */
export function serviceUnavailable(): Problem {
  return {
    type: `${TYPE}service_unavailable`,
    title: 'Service Unavailable',
    status: 503,
    detail: 'The request cannot be serviced at this time.',
  };
}

/** Friendbot's answer for an account that already exists (its createAccountAlreadyExist result, as it prints it). */
export function friendbotAccountExists(): Problem {
  return {
    type: `${TYPE}bad_request`,
    title: 'Bad Request',
    status: 400,
    detail: 'createAccountAlreadyExist (AAAAAAAAAGT/////AAAAAQAAAAAAAAAA/////AAAAAA=)',
  };
}
