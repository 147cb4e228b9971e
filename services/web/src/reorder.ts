/** A copy of `items` with the item at `from` moved to `to` (both clamped to the list). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = items.slice();
  if (from < 0 || from >= next.length) return next;
  const target = Math.min(next.length - 1, Math.max(0, to));
  if (target === from) return next;
  const [item] = next.splice(from, 1);
  next.splice(target, 0, item as T);
  return next;
}

/** Whether two lists hold the same ids in the same order. */
export function sameOrder(a: readonly { id: number }[], b: readonly { id: number }[]): boolean {
  return a.length === b.length && a.every((item, i) => item.id === b[i]?.id);
}
