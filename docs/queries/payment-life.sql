-- A payment's whole life, by its transactionRecordId: every function's log lines and metric lines that
-- name it, in time order (the API's acceptance, the ledger submitter's settlement, the webhook
-- dispatcher's fan-out and each delivery attempt; at DEBUG also the outbox router's sends, the
-- submitter's envelopes and each lifecycle move).
-- CloudWatch Logs Insights; log groups: every function of the stage (their names start with its stack name).
-- Replace the id below.
fields @timestamp, function_name, level, message, requestId, status, errorCode, attempt, statusCode, @message
| filter transactionRecordId = "00000000-0000-0000-0000-000000000000"
| sort @timestamp asc
| limit 1000
