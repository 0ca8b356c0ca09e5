// Items grouped by a key, each group in the items' order (Map.groupBy is newer than the build's target).

/** The items grouped by `keyOf`, groups in the order their first item came, items in their order. */
export function groupBy<T, K>(items: Iterable<T>, keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
