// An operator's ordinary mistake or a request the stack turns down (not found, already decided, invalid
// file): the admin CLI prints its message alone and exits 1. Anything else is a bug, and keeps its stack.
export class AdminRefusal extends Error {
  override name = 'AdminRefusal';
}
