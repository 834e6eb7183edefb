/**
 * Formats as plug-ins: a test-only format, registered in one line, is read, applied and held to
 * every validator without a line of its own — an elided or destructive reply in it is refused by
 * the validation stage (and would be applied without it).
 */
import assert from "node:assert/strict";
import {
  type FormatEdit,
  formatInstructions,
  formatNames,
  formatOf,
  type FormatPlugin,
  FORMATS,
  registerFormat,
  unregisterFormat,
} from "../../lib/edit/mod.ts";
import { EditRefusal } from "../../lib/edit/refusal.ts";
import { judgeReply, type ReplyInput, validateOutcome } from "../../lib/implement/reply.ts";
import { EDIT_FORMATS } from "../../lib/config.ts";

/** `path`, then `@@ lines A-B @@`, the new lines, `@@ end @@`: lines A to B replaced. */
const REPLACE_LINES: FormatPlugin = {
  name: "replace_lines",
  instructions: () => "Reply with the path, then @@ lines A-B @@, the new lines, then @@ end @@.",
  shape: (file) => `${file}\n@@ lines A-B @@\n(the new lines)\n@@ end @@`,
  mark: "replace lines",
  create: "",
  showsWhole: true,
  replyTokens: (size) => size + 256,
  read(reply, known) {
    const lines = reply.split("\n");
    const out: FormatEdit[] = [];
    for (let i = 1; i < lines.length; i++) {
      const m = lines[i].match(/^@@ lines (\d+)-(\d+) @@$/);
      if (!m || !known.includes(lines[i - 1].trim())) continue;
      const end = lines.indexOf("@@ end @@", i);
      if (end < 0) continue;
      const data = { from: +m[1], to: +m[2], lines: lines.slice(i + 1, end) };
      out.push({ type: "format", format: "replace_lines", path: lines[i - 1].trim(), data });
    }
    return out.length ? out : null;
  },
  apply(edit, lines) {
    const d = edit.data as { from: number; to: number; lines: string[] };
    if (d.from < 1 || d.to > lines.length) {
      throw new EditRefusal(`lines ${d.from}-${d.to} are not in the file`, "no-match", edit.path);
    }
    return [...lines.slice(0, d.from - 1), ...d.lines, ...lines.slice(d.to)];
  },
};

const FUNCS = Array.from({ length: 20 }, (_, i) => `def f${i}(x):\n    return x + ${i}\n\n`);
const MODULE = FUNCS.join("");

function input(spec: string): ReplyInput {
  return { spec, files: ["m.py"], symbolsOnly: [], current: new Map([["m.py", MODULE]]) };
}

async function withFormat(fn: () => Promise<void>): Promise<void> {
  registerFormat(REPLACE_LINES); // the one line a new format needs
  try {
    await fn();
  } finally {
    unregisterFormat("replace_lines");
  }
}

Deno.test("a format registered in one line is read, applied, named and prompted", async () => {
  await withFormat(async () => {
    assert.ok(formatNames().includes("replace_lines"));
    assert.match(formatInstructions("replace_lines"), /@@ lines A-B @@/);
    const reply = "m.py\n@@ lines 2-2 @@\n    return x * 0\n@@ end @@\n";
    const spec = "f0 must return 0.";
    const out = await validateOutcome(judgeReply(reply, input(spec)), input(spec));
    assert.equal(out.kind, "edits", JSON.stringify(out));
    if (out.kind !== "edits") return;
    assert.equal(out.files.get("m.py"), MODULE.replace("return x + 0", "return x * 0"));
    assert.match(out.decision, /m\.py \(replace_lines\)/);
  });
});

Deno.test("the new format gets every validator: elided or destructive replies are refused", async () => {
  await withFormat(async () => {
    const spec = "f0 must return 0.";
    const elided =
      "m.py\n@@ lines 1-60 @@\ndef f0(x):\n    return 0\n# ... rest unchanged\n@@ end @@\n";
    // The format has no guard of its own: without the stage the elided reply would be written.
    assert.equal(judgeReply(elided, input(spec)).kind, "edits");
    const out = await validateOutcome(judgeReply(elided, input(spec)), input(spec));
    assert.equal(out.kind, "unusable");
    assert.match(out.decision, /validate \(elision\)/);
    // 57 of 60 lines replaced by one definition: refused though no marker says so.
    const cut = "m.py\n@@ lines 4-60 @@\ndef f1(x):\n    return x + 1\n@@ end @@\n";
    const gone = await validateOutcome(judgeReply(cut, input(spec)), input(spec));
    assert.equal(gone.kind, "unusable");
    assert.match(gone.decision, /validate \((destructive|definitions)\)/);
    // A change it is asked for passes: the validators do not refuse the format as such.
    const asked = "Remove f19.";
    const drop = "m.py\n@@ lines 58-60 @@\n@@ end @@\n";
    const ok = await validateOutcome(judgeReply(drop, input(asked)), input(asked));
    assert.equal(ok.kind, "edits", ok.kind === "unusable" ? ok.problem : "");
  });
});

Deno.test("format names come from the registry; an unknown one is an error, never another", () => {
  assert.deepEqual([...EDIT_FORMATS], ["auto", ...Object.keys(FORMATS)]);
  assert.throws(() => formatOf("replace_lines"), /no reply format is named "replace_lines"/);
  assert.throws(() => registerFormat({ ...REPLACE_LINES, name: "diff" }), /registered already/);
  unregisterFormat("diff");
  assert.equal(formatOf("diff").name, "diff");
});
