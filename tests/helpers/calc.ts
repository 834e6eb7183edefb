/**
 * The small Python project the implement_task tests edit, and the model replies they script.
 */

/** The model every implement_task test configures. */
export const MODEL = "qwen2.5-coder:7b";

/** calc.py with a bug in add(). */
export const CALC = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n";

/** calc.py with add() fixed. */
export const FIXED = CALC.replace("return a - b", "return a + b");

/** A SEARCH/REPLACE block for `path`, as a model writes it. */
export function block(path: string, search: string, replace: string): string {
  return `${path}\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n`;
}

/** The reply that fixes add(). */
export const FIX_ADD = block(
  "calc.py",
  "def add(a, b):\n    return a - b\n",
  "def add(a, b):\n    return a + b\n",
);

/** A reply that applies but leaves add() wrong (it multiplies). */
export const WRONG_ADD = block(
  "calc.py",
  "def add(a, b):\n    return a - b\n",
  "def add(a, b):\n    return a * b\n",
);

/** A second wrong edit, from where {@linkcode WRONG_ADD} left calc.py. */
export const WORSE_ADD = block(
  "calc.py",
  "def add(a, b):\n    return a * b\n",
  "def add(a, b):\n    return a ** b\n",
);

/** The fix from where {@linkcode WRONG_ADD} left calc.py. */
export const FIX_WRONG = block(
  "calc.py",
  "def add(a, b):\n    return a * b\n",
  "def add(a, b):\n    return a + b\n",
);
