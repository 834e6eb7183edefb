/**
 * `localexec call` ends as soon as its answer is written (`Deno.exit`): nothing may be lost by
 * that. The whole answer reaches a pipe however large, the exit code still says whether it is an
 * error, and what a command started is gone once the process is.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { FULL, MAIN } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import { processesWith } from "../faults/suite.ts";

async function _call(root: string, tool: string, args: unknown) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...FULL, MAIN, "call", tool, JSON.stringify(args), "--root", root],
    stdout: "piped",
    stderr: "null",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  return { code: out.code, text, json: JSON.parse(text) };
}

Deno.test("call writes a two-megabyte answer whole to a pipe before it exits", async () => {
  const line = "x".repeat(99) + "\n";
  const root = await tempProject({ "big.txt": line.repeat(19_000) + "THE END\n" });
  try {
    const { code, text, json } = await _call(root, "read_file", {
      filename: "big.txt",
      max_chars: 2_000_000,
    });
    assert.equal(code, 0);
    assert.ok(text.length > 1_900_000, `${text.length} characters`);
    assert.ok(text.endsWith("\n") && text.indexOf("\n") === text.length - 1, "one line");
    assert.equal(json.status, "ok");
    assert.match(JSON.stringify(json), /THE END/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("call still exits 2 with an error answer", async () => {
  const root = await tempProject({ "a.txt": "a\n" });
  try {
    const { code, json } = await _call(root, "read_file", { filename: "missing.txt" });
    assert.equal(code, 2);
    assert.equal(json.status, "error");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test({
  name: "call leaves none of its command's processes behind, setsid ones included",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const root = await tempProject({ "a.txt": "a\n" });
    const tag = `9${crypto.getRandomValues(new Uint32Array(1))[0] % 100_000_000}`;
    try {
      const command = `sleep ${tag}1 & setsid sleep ${tag}2 & echo started`;
      const { code, json } = await _call(root, "shell", { command });
      assert.equal(code, 0);
      assert.equal(json.status, "ok");
      assert.match(String(json.output), /started/);
      let left = processesWith(`sleep ${tag}`);
      for (const until = Date.now() + 3000; left.length && Date.now() < until;) {
        await new Promise((r) => setTimeout(r, 50));
        left = processesWith(`sleep ${tag}`);
      }
      for (const pid of left) Deno.kill(pid, "SIGKILL");
      assert.deepEqual(left, []);
      assert.equal(await Deno.readTextFile(join(root, "a.txt")), "a\n");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
