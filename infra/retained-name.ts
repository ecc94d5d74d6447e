// Physical names of resources a deleted stack leaves behind. Production keeps its stateful resources
// when the stack is deleted (RETAIN_ON_UPDATE_OR_DELETE, infra/stage.ts); one whose name is fixed would
// then stand in the way of the same stack created again ("already exists"). So, where nothing but the
// stack reads the name, a retained resource's name ends with its stack's own id (the first group of the
// stack id's UUID, new at each creation), and the leftovers of a deleted stack never collide. A
// disposable stage deletes everything with its stack and keeps the plain name.
// Not here on purpose: the key secrets (infra/constructs/key-secrets.ts). A recreated stack must take
// the existing ones back (`cdk import`, docs/production.md), never make new keys beside them, so their
// fixed names make such a create fail instead of succeeding with empty keys.
import { Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/** `<base>-<8 hex digits of the stack id>` when the resource outlives its stack, `<base>` otherwise. */
export function retainedName(scope: IConstruct, base: string, removalPolicy: RemovalPolicy): string {
  if (removalPolicy === RemovalPolicy.DESTROY) return base;
  const stackUuid = Fn.select(2, Fn.split('/', Stack.of(scope).stackId));
  return `${base}-${Fn.select(0, Fn.split('-', stackUuid))}`;
}
