/** The items of `items` without repeats, in first-seen order (compared with ===). */
export function unique(items) {
  return [...new Set(items)];
}
