/**
 * A guard for patterns that begin with a run, `C+` or `C*` (`\w+Error\(`): V8 tries such a pattern
 * at every start inside a long run of C and runs each try to the run's end, quadratic (a line of
 * 20,000 word characters took over a second).
 *
 * A leftmost match never starts right after a C: a match at p, with C at p - 1, is also one at
 * p - 1 (the run takes one character more, the rest matches as before). So with no top-level
 * alternation, `(?<!C)` before the pattern keeps every line's first match, at the same place and
 * of the same length (a zero-width test before the same search), and a start inside a run fails
 * at once. The guard leaves a newline alone (`(?!\n)C`): a line's first character, found in the
 * whole text, has one before it, which a class such as `[^"]` or `\s` would hold.
 */

/** One character's escape, class or literal at the start of `pattern`, or undefined. */
function _atom(pattern: string): string | undefined {
  const c = pattern[0];
  if (c === undefined) return undefined;
  if (c === "\\") {
    const single = /^\\(?:[wWdDsStnrfv]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[pP]\{[\w=]+\}|[^\w\s])/
      .exec(pattern);
    return single?.[0];
  }
  if (c === "[") {
    let k = pattern[1] === "^" ? 2 : 1;
    for (; k < pattern.length; k++) {
      if (pattern[k] === "\\") k++;
      else if (pattern[k] === "]") return pattern.slice(0, k + 1);
    }
    return undefined;
  }
  if (c === ".") return c;
  // A plain character: not special, not half of a surrogate pair.
  if ("^$*+?()]{}|/".includes(c) || /[\ud800-\udfff]/.test(c)) return undefined;
  return c;
}

/** Whether `pattern` has a `|` outside every group and class. */
function _topAlternation(pattern: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let k = 0; k < pattern.length; k++) {
    const c = pattern[k];
    if (c === "\\") k++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) return true;
  }
  return false;
}

/**
 * `pattern` with `(?<!C)` before it when it begins with a run `C+` or `C*` (greedy or lazy) of one
 * character escape, class or literal and has no top-level alternation; otherwise undefined. The
 * result, compiled with `flags`, matches the same lines with the same first match.
 */
export function guardLeadingRun(pattern: string, flags: string): string | undefined {
  const atom = _atom(pattern);
  if (atom === undefined) return undefined;
  const quantifier = pattern[atom.length];
  if (quantifier !== "+" && quantifier !== "*") return undefined;
  if (_topAlternation(pattern)) return undefined;
  const guarded = `(?<!(?!\\n)${atom})${pattern}`;
  try {
    new RegExp(guarded, flags);
  } catch {
    return undefined;
  }
  return guarded;
}
