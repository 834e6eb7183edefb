/** Whole files: the file's path alone on a line, then a fenced block with every line of it. */
import type { FormatPlugin } from "./types.ts";

/** Whole-file replies. */
export const WHOLE: FormatPlugin = {
  name: "whole",
  instructions(fence) {
    const named = fence === "```" ? "" : ` opened and closed with ${fence}`;
    return `Reply with the complete new content of each file you change: the file's path alone on a line, then one fenced code block${named} with every line of the file, exactly as the file should end up. Never shorten it with "..." or comments such as "rest unchanged".
Example:
src/calc.py
${fence}python
def add(a, b):
    return a + b
${fence}`;
  },
  shape: (file, fence) => `${file}\n${fence}\n(the complete new content of ${file})\n${fence}`,
  mark: "whole file: reply with its complete new content",
  create: "",
  showsWhole: true,
  replyTokens: (size) => Math.ceil(size * 1.2) + 256,
};
