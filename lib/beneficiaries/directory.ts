// The beneficiaries other domains read (quotes and, next, payments): records by id, inside the caller's
// tenant. A module of its own so that reading one does not bundle validation (libphonenumber, the
// schemas) into every function that prices or pays.
export { findBeneficiary, findPaymentDestination } from './repo.ts';
