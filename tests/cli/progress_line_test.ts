/**
 * The progress line `call` and `eval` show on stderr: one line redrawn on a terminal, plain
 * lines on a pipe.
 */
import assert from "node:assert/strict";
import { ProgressLine } from "../../lib/cli/mod.ts";

function capture(tty: boolean) {
  const out: string[] = [];
  let now = 0;
  const line = new ProgressLine("localexec find", {
    tty,
    write: (text) => void out.push(text),
    columns: () => 60,
    tickMs: 0,
    now: () => now,
  });
  return { out, line, later: (ms: number) => void (now += ms) };
}

Deno.test("progress line on a terminal redraws one line in place and clears it at the end", () => {
  const { out, line, later } = capture(true);
  line.show("listing the project's files");
  later(3000);
  line.show("searching 30,000 files", 1, 4);
  line.note("a note");
  line.show("searching 30,000 files", 2, 4);
  line.end();
  const text = out.join("");
  assert.ok(!text.replace("a note\n", "").includes("\n"), JSON.stringify(text));
  assert.ok(out[0].startsWith("\r\x1b[2K"));
  assert.ok(out.every((o) => o.length <= 60 + 4 + 1), "cut to the terminal's width");
  assert.match(text, /localexec find \(3 s, 25%\): searching 30,000 files/);
  assert.ok(text.endsWith("\r\x1b[2K"), "cleared before the answer");
});

Deno.test("progress line on a pipe writes a line per new message, not per heartbeat", () => {
  const { out, line } = capture(false);
  line.show("running check a 1/2", 0, 2);
  line.show("running check a 1/2", 0.001, 2);
  line.show("running check a 1/2", 0.002, 2);
  line.show("running check b 2/2", 1, 2);
  line.end();
  assert.deepEqual(out, [
    "localexec find: running check a 1/2\n",
    "localexec find: running check b 2/2\n",
  ]);
});

Deno.test("eval's progress on a terminal leaves no live line of a finished task", async () => {
  const { Progress } = await import("../../lib/eval/report.ts");
  const out: string[] = [];
  const progress = new Progress(2, { tty: true, write: (t) => void out.push(t), tickMs: 0 });
  progress.update("py-fix", "asking the model");
  progress.finish("py-fix", "passed  py-fix");
  const text = out.join("");
  assert.ok(text.endsWith("[1/2] passed  py-fix\n"), JSON.stringify(text));
});
