-- Who ran into a request limit today (set the time range to 1 d): each caller's full windows by route
-- group. RequestLimitReached is written once per window and execution environment that found it full
-- (lib/limits/service.ts), so a count is windows (times environments), not refused requests; `quota` is
-- the limit the caller had. A caller is `app#<applicationId>` or `connector#<environment>#<connectorId>`.
-- CloudWatch Logs Insights; log groups: every function of the stage.
filter ispresent(RequestLimitReached)
| stats count(*) as windows by subject, group, quota
| sort windows desc
