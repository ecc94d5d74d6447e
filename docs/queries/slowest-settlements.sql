-- The slowest settlements today (set the time range to today): each payment's 202 → settled time from
-- its SettlementLatency metric line, slowest first, with the record to follow (payment-life.sql) and
-- the tenant it belongs to.
-- CloudWatch Logs Insights; log group: the stage's ledger submitter (its name holds WorkersLedgerSubmitter), or all.
filter ispresent(SettlementLatency)
| fields @timestamp, transactionRecordId, associationId, type, status, SettlementLatency as ms
| sort ms desc
| limit 50
