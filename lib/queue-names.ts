// Physical SQS names, shared by infra and the local stack so both address the same queues.

/** The physical name of a logical queue in a stage, e.g. `dev-ledger-submissions`. */
export function physicalQueueName(stage: string, name: string): string {
  return `${stage}-${name}`;
}

/** The physical name of the dead-letter queue behind a logical queue. */
export function physicalDeadLetterQueueName(stage: string, name: string): string {
  return `${physicalQueueName(stage, name)}-dlq`;
}

/** The environment variable that gives a producer a queue's URL, e.g. QUEUE_URL_WALLET_ACTIVATIONS. */
export const queueUrlVariable = (name: string): string =>
  `QUEUE_URL_${name.toUpperCase().replaceAll('-', '_')}`;
