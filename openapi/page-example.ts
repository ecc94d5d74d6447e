/** A list's example answer: one item, and no page after it. */
export const lastPageExample = <T>(item: T) => ({
  data: [item],
  pagination: { nextCursor: null, hasMore: false },
});
