// The shape of a log line. A line at INFO or DEBUG says what happened and to which invocation: level,
// message, timestamp, the function and its request id, then the line's own keys. The context
// Powertools repeats on every line (service, function ARN and memory, sampling rate, X-Ray trace id,
// cold_start: false) is the same on every line of a function's log group, and CloudWatch bills each
// byte of it at ingestion. A WARN or ERROR line keeps the whole context: it is rare, and its trace id
// leads to the invocation's trace. cold_start shows only when true.
import { LogFormatter, LogItem } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';

const WHOLE_CONTEXT_LEVELS = new Set(['WARN', 'ERROR', 'CRITICAL']);

export class LogLineFormatter extends LogFormatter {
  override formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    const context = attributes.lambdaContext;
    const whole = WHOLE_CONTEXT_LEVELS.has(attributes.logLevel);
    const line = {
      level: attributes.logLevel,
      message: attributes.message,
      timestamp: this.formatTimestamp(attributes.timestamp),
      ...(whole || context?.coldStart ? { cold_start: context?.coldStart } : {}),
      function_name: context?.functionName,
      function_request_id: context?.awsRequestId,
    };
    const rest = whole
      ? {
          service: attributes.serviceName,
          function_arn: context?.invokedFunctionArn,
          function_memory_size: context?.memoryLimitInMB,
          sampling_rate: attributes.sampleRateValue,
          xray_trace_id: attributes.xRayTraceId,
        }
      : {};
    return new LogItem({ attributes: { ...line, ...rest } }).addAttributes(additional);
  }
}
