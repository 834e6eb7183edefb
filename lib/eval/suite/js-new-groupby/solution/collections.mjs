/** The items of `items` without repeats, in first-seen order (compared with ===). */
export function unique(items) {
  return [...new Set(items)];
}

/** Groups `items` by `keyOf(item, index)`: a Map from key to the items with that key. */
export function groupBy(items, keyOf) {
  if (typeof keyOf !== "function") throw new TypeError("keyOf must be a function");
  const groups = new Map();
  items.forEach((item, index) => {
    const key = keyOf(item, index);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  });
  return groups;
}
