/**
 * The test suite (`deno task test`): `tests/` in two `deno test` processes at once, so that CI
 * stays well under its ten minutes on two cores (serial, the suite took 9.5 minutes; most tests wait
 * on subprocesses, servers and model stand-ins rather than on the CPU). Two processes, not `deno
 * test --parallel`: that runs test files as threads of one process, where one file's
 * `Deno.env.set` (HOME, XDG_CACHE_HOME) is seen by another's.
 *
 * The shards are folders of `tests/`: the first names its folders (find, the protocol,
 * outline, the command line, the reply reader, the scripts, and the files directly in `tests/`);
 * the second takes every other folder, so a new folder is never left out. Each shard's output is
 * printed whole when it ends, then one line per shard; the exit code is the first failure's.
 *
 * With arguments (`deno task test tests/foo_test.ts --filter x`), one `deno test` runs them as given.
 *
 * Run: `deno task test [ARGS…]`.
 */
import { fileURLToPath } from "node:url";
import { dirname, join } from "../lib/deps.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const FIRST = ["find", "mcp", "outline", "cli", "edit", "scripts"];

/** `deno test` with `args`, from the repository's root; its output and how it ended. */
async function _run(args: string[], inherit: boolean) {
  const began = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["test", "--no-prompt", "-A", ...args],
    cwd: ROOT,
    stdout: inherit ? "inherit" : "piped",
    stderr: inherit ? "inherit" : "piped",
  }).output();
  const secs = Math.round((performance.now() - began) / 1000);
  const text = inherit ? "" : new TextDecoder().decode(out.stdout) +
    new TextDecoder().decode(out.stderr);
  return { code: out.code, secs, text };
}

if (Deno.args.length) Deno.exit((await _run(Deno.args, true)).code);

const first: string[] = [];
const second: string[] = [];
for (
  const e of [...Deno.readDirSync(join(ROOT, "tests"))].sort((a, b) => a.name < b.name ? -1 : 1)
) {
  const rel = `tests/${e.name}`;
  if (e.isFile && e.name.endsWith("_test.ts")) first.push(rel);
  else if (e.isDirectory && FIRST.includes(e.name)) first.push(rel);
  else if (e.isDirectory) second.push(rel);
}
const runs = await Promise.all([first, second].map((paths) => _run(paths, false)));
let code = 0;
for (const r of runs) {
  await Deno.stdout.write(new TextEncoder().encode(r.text));
  if (r.code !== 0 && code === 0) code = r.code;
}
for (const [i, r] of runs.entries()) {
  console.log(`test: shard ${i + 1} of 2 ${r.code === 0 ? "passed" : "FAILED"} in ${r.secs} s`);
}
Deno.exit(code);
