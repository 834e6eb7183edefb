/**
 * Tests written for the survivors of the second `deno task mutate --changed d9b33cd` run (merged
 * main; docs/MUTATION.md) in lib/mcp: each fails with its mutant planted and passes on the code.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { normalizeArguments } from "../../lib/mcp/arguments.ts";
import { callTool } from "../../lib/mcp/boundary.ts";
import { ANNOTATIONS, defineTool, RichResult } from "../../lib/mcp/mod.ts";
import { ProgressValues } from "../../lib/mcp/dispatch.ts";
import implementTask from "../../tools/implement_task.ts";

// arguments.ts:58: `if (typeof value !== "string" || field.safeParse(value).success)` → `if (true)`
Deno.test("a string given for a list argument becomes a one-element list", () => {
  const out = normalizeArguments(implementTask, {
    files_to_edit: "a.py",
    context_files: "b.py",
    spec: "s",
  });
  assert.ok("args" in out);
  assert.deepEqual(out.args.files_to_edit, ["a.py"]);
  assert.deepEqual(out.args.context_files, ["b.py"]);
  // A string the field takes as it is stays a string.
  const kept = normalizeArguments(implementTask, { spec: "s" });
  assert.ok("args" in kept);
  assert.equal(kept.args.spec, "s");
});

// dispatch.ts:30: `if (total !== undefined) this.total = total;` → `if (true) …`
Deno.test("progress keeps the total a step named for the steps that name none", () => {
  const p = new ProgressValues();
  assert.equal(p.step(undefined, 3), 1);
  assert.equal(p.step(10), 3);
  assert.equal(p.total, 3);
});

// boundary.ts:219: `if (out instanceof RichResult) {` → `if (false) {`
Deno.test("a rich result keeps its blocks and gets the call's warnings in its JSON", async () => {
  const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
  const tool = defineTool({
    name: "picture",
    title: "Picture",
    description: "picture",
    input: z.object({}),
    output: z.looseObject({ status: z.string() }),
    needs: [],
    annotations: ANNOTATIONS.READS,
    run: (_args, ctx) => {
      ctx.warn?.("a warning");
      return Promise.resolve(new RichResult({ status: "ok" }, [image]));
    },
  });
  const ctx = { root: "/tmp", signal: new AbortController().signal } as never;
  const result = await callTool(tool as never, {}, ctx);
  assert.deepEqual(result.structuredContent, { status: "ok", warnings: ["a warning"] });
  assert.deepEqual(result.content.filter((b) => b.type === "image"), [image]);
});
