-- One tenant's failures in the last hour (set the time range to 1 h): payments that settled failed, by
-- error code, and webhook attempts that were not answered 2xx, by outcome. The tenant is never a metric
-- dimension (lib/metrics.ts); its associationId is a property of each metric line, so it is filtered here.
-- CloudWatch Logs Insights; log groups: every function of the stage (their names start with its stack name).
-- Replace the associationId below.
filter associationId = "assoc-to-look-at"
| filter (ispresent(PaymentSettled) and status = "failed") or (ispresent(WebhookDelivery) and outcome != "2xx")
| fields ispresent(PaymentSettled) as payment
| stats count(*) as failures by payment, errorCode, outcome, type
| sort failures desc
