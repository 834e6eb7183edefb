/**
 * A strict reading of a JSON Schema for tests: a value's fields must all be declared (as if every
 * object were `additionalProperties: false`), with the declared types, nested ones included.
 */

type Json = Record<string, unknown>;

/** Where `value` breaks `schema`, read strictly: undeclared fields are named. */
export function strictProblems(schema: Json, value: unknown, at = "$"): string[] {
  const options = schema.anyOf as Json[] | undefined;
  if (options) {
    const each = options.map((o) => strictProblems(o, value, at));
    return each.some((p) => !p.length) ? [] : each.sort((a, b) => a.length - b.length)[0];
  }
  const type = schema.type as string | string[] | undefined;
  const actual = value === null
    ? "null"
    : Array.isArray(value)
    ? "array"
    : Number.isInteger(value)
    ? "integer"
    : typeof value;
  const types = type === undefined ? [] : [type].flat();
  const fits = (t: string) => t === actual || (t === "number" && actual === "integer");
  if (types.length && !types.some(fits)) {
    return [`${at}: ${actual}, declared ${types.join(" or ")}`];
  }
  if (Array.isArray(value)) {
    const items = schema.items as Json | undefined;
    return items ? value.flatMap((v, i) => strictProblems(items, v, `${at}[${i}]`)) : [];
  }
  if (actual !== "object") return [];
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const extra = schema.additionalProperties as Json | undefined;
  const record = extra && typeof extra === "object" && Object.keys(extra).length ? extra : null;
  const out: string[] = [];
  for (const [key, v] of Object.entries(value as Json)) {
    const own = props[key] ?? record;
    if (!own) out.push(`${at}.${key}: not declared`);
    else out.push(...strictProblems(own, v, `${at}.${key}`));
  }
  for (const key of (schema.required ?? []) as string[]) {
    if (!(key in (value as Json))) out.push(`${at}.${key}: required, missing`);
  }
  return out;
}
