/** Field rules: each takes a value and returns an error message, or null when the value is fine. */
export function required(value) {
  return value === undefined || value === null || value === "" ? "is required" : null;
}

export function minLength(n) {
  return (value) =>
    typeof value === "string" && value.length < n ? `must be at least ${n} characters` : null;
}

/** Runs `rules` (field -> list of rules) on `data`: {field: first message} for every failure. */
export function validate(data, rules) {
  const errors = {};
  for (const [field, list] of Object.entries(rules)) {
    for (const rule of list) {
      const message = rule(data[field]);
      if (message) {
        errors[field] = message;
        break;
      }
    }
  }
  return errors;
}
