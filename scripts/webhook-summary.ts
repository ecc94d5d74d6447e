// The one line `npm run webhooks:listen` prints under each verified event: the few members of its data
// a tester looks at, by source (scripts/webhooks-listen.ts).

type Data = Record<string, unknown>;
export const show = (value: unknown) =>
  value === null || value === undefined || value === '' ? '-' : String(value);

/** The few members of `data` a tester looks at, by source. */
export function summary(event: { source?: string; data?: unknown; metaData?: unknown }): string {
  const data = (event.data ?? {}) as Data;
  switch (event.source) {
    case 'payments': {
      const parts = [
        `status ${show(data.status)}`,
        `${show(data.sendAmount)} ${show(data.sendCurrency)}`,
        `type ${show(data.type)}`,
        `transactionRecordId ${show(data.transactionRecordId)}`,
        `stellarTxHash ${show(data.stellarTxHash)}`,
      ];
      if (data.receiveCurrency && data.receiveCurrency !== data.sendCurrency)
        parts.splice(2, 0, `receives ${show(data.receiveAmount)} ${show(data.receiveCurrency)}`);
      // Ramps: the connector, the provider's reference and, once paid back, the refund's ledger hash.
      if (data.connectorId)
        parts.push(
          `connector ${show(data.connectorId)}`,
          `externalReference ${show(data.externalReference)}`,
        );
      // A provider's on-ramp receipt: its payout summary (spec §6.4), in metaData.data.
      const payout = ((event.metaData as Data | undefined)?.data ?? {}) as Data;
      if (payout.netAmount !== undefined)
        parts.push(
          `net ${show(payout.netAmount)} ${show(payout.assetCode)}`,
          `fees ${show(payout.totalFees)} ${show(payout.feeCurrency)}`,
          `reference ${show(payout.reference)}`,
        );
      if (data.refundTxHash) parts.push(`refundTxHash ${show(data.refundTxHash)}`);
      if (data.errorCode) parts.push(`errorCode ${show(data.errorCode)}: ${show(data.failureReason)}`);
      return parts.join(' · ');
    }
    case 'wallets':
      return [
        `wallet ${show(data.id)}`,
        `"${show(data.walletName)}"`,
        `status ${show(data.status)}`,
        show(data.assetCode),
      ].join(' · ');
    case 'payment-destinations':
      return [
        `destination ${show(data.id)}`,
        show(data.method),
        `verificationStatus ${show(data.verificationStatus)}`,
        `beneficiary ${show(data.beneficiaryId)}`,
      ].join(' · ');
    case 'customers':
      return [
        `customer ${show(data.customerId)}`,
        `connector ${show(data.connectorId)}`,
        show(data.kind),
        `status ${show(data.status)}`,
        `review ${show(data.review)}`,
      ].join(' · ');
    default: {
      const text = JSON.stringify(data);
      return text.length > 160 ? `${text.slice(0, 159)}…` : text;
    }
  }
}
