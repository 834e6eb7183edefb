/**
 * Makefile recipes start with a tab: small models write four spaces, which make refuses
 * ("missing separator"). A recipe line written with spaces gets its tab back; continuation lines
 * (after a line ending in `\`) and lines outside recipes keep their spaces.
 */
import { quoteValue } from "../refusal.ts";
import type { Fitter } from "./types.ts";

const MAKEFILE = /(^|\/)(GNUmakefile|makefile|Makefile)$|\.mk$/;
/** A rule line: targets, a colon that is not part of an assignment (`:=`, `::=`). */
const RULE = /^[^\s#=:][^=]*?::?(?![=:])/;
const ASSIGN = /^[^\s#:]*\s*(\?|\+|!|::?)?=/;

/** Tab-indented recipe lines for `text` (its recipes written with spaces fixed). */
export function recipeTabs(text: string): string {
  const lines = text.split("\n");
  let inRecipe = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, "");
    const continued = i > 0 && /\\\r?$/.test(lines[i - 1]);
    if (continued) continue;
    if (!line.trim()) continue;
    if (!/^\s/.test(line)) {
      inRecipe = RULE.test(line) && !ASSIGN.test(line);
      continue;
    }
    if (inRecipe && line.startsWith(" ")) lines[i] = "\t" + lines[i].trimStart();
  }
  return lines.join("\n");
}

/** Recipe tabs in a Makefile. */
export const MAKEFILE_TABS: Fitter = {
  name: "makefile",
  fit(change) {
    if (!MAKEFILE.test(change.path) || /\.RECIPEPREFIX/.test(change.after)) return null;
    const after = recipeTabs(change.after);
    if (after === change.after) return null;
    return { after, note: `Wrote the recipe lines of ${quoteValue(change.path)} with tabs` };
  },
};
