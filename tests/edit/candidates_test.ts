/**
 * Candidates instead of precedence: a block whose file only prose names, with another file named
 * too, is tried as each; the reading that survives the validators is taken.
 */
import assert from "node:assert/strict";
import { otherReadings } from "../../lib/edit/mod.ts";
import { judgeReply, type ReplyInput, validateOutcome } from "../../lib/implement/reply.ts";

const CALC = "def round_result(x):\n    return round(x, 2)\n";
const SETTINGS = 'PRECISION = 2\nCURRENCY = "EUR"\n';
const NEW_CALC =
  "from settings import PRECISION\n\n\ndef round_result(x):\n    return round(x, PRECISION)\n";

function input(
  spec: string,
  files: Record<string, string> = { "calc.py": CALC, "settings.py": SETTINGS },
): ReplyInput {
  const current = new Map<string, string | null>(Object.entries(files));
  return { spec, files: Object.keys(files), symbolsOnly: [], current };
}

async function judge(reply: string, i: ReplyInput) {
  return await validateOutcome(judgeReply(reply, i), i);
}

Deno.test("the reading that survives the validators is taken, whatever the backticks say", async () => {
  const reply = "`settings.py` already defines PRECISION, so it stays as it is; only calc.py " +
    `changes:\n\n\`\`\`python\n${NEW_CALC}\`\`\`\n`;
  const i = input("round_result must round to settings.PRECISION digits.");
  const out = await judge(reply, i);
  assert.equal(out.kind, "edits", out.kind === "unusable" ? out.problem : "");
  if (out.kind !== "edits") return;
  assert.deepEqual(out.changed, ["calc.py"]);
  assert.equal(out.files.get("calc.py"), NEW_CALC);
  assert.match(out.decision, /candidates: 2 readings/);
});

Deno.test("when every reading is a valid edit, which file is unclear: refused", async () => {
  const a = "def f():\n    return 1\n";
  const files = { "a.py": a, "b.py": a };
  const reply = "`a.py` or b.py, this is the fix:\n\n```python\ndef f():\n    return 2\n```\n";
  const out = await judge(reply, input("f must return 2.", files));
  assert.equal(out.kind, "unusable");
  if (out.kind === "unusable") assert.match(out.problem, /could be for "a\.py" or "b\.py"/);
});

Deno.test("a path line leaves no other reading", () => {
  const reply = `calc.py\n\`\`\`python\n${NEW_CALC}\`\`\`\nsettings.py stays as it is.\n`;
  const out = judgeReply(reply, input("Use settings.PRECISION."));
  assert.equal(out.kind, "edits");
  if (out.kind === "edits") assert.equal(otherReadings(out.edits).length, 0);
});
