/** SEARCH/REPLACE blocks (Aider's "diff" format): the exact lines now, then what replaces them. */
import type { FormatPlugin } from "./types.ts";

const RULES =
  `Reply with SEARCH/REPLACE blocks. For each change write the file's path alone on a line, then:
<<<<<<< SEARCH
(the exact lines now in the file, copied with their indentation, enough to match one place)
=======
(the lines that replace them)
>>>>>>> REPLACE
Example:
src/calc.py
<<<<<<< SEARCH
def add(a, b):
    return a - b
=======
def add(a, b):
    return a + b
>>>>>>> REPLACE
Use one block per change; keep SEARCH short. To create a new file, leave the SEARCH part empty.`;

/** SEARCH/REPLACE replies. */
export const DIFF: FormatPlugin = {
  name: "diff",
  instructions: () => RULES,
  shape: (file) =>
    `${file}\n<<<<<<< SEARCH\n(the exact lines now in ${file})\n=======\n` +
    "(the lines that replace them)\n>>>>>>> REPLACE",
  mark: "",
  create: " with an empty SEARCH part",
  showsWhole: false,
  replyTokens: (size) => Math.min(4096, Math.ceil(size * 0.5)) + 256,
};
