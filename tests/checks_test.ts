import assert from "node:assert/strict";
import { join } from "../lib/deps.ts";
import {
  checkCannotStart,
  expandCommand,
  matchesFilter,
  runChecks,
  shellQuote,
  trimOutput,
} from "../lib/checks.ts";
import { cannotStart, programsOf } from "../lib/process/probe.ts";
import type { Check } from "../lib/config.ts";
import { tempProject } from "./helpers/project.ts";

function check(name: string, command: string | string[], extra: Partial<Check> = {}): Check {
  return { name, command, timeout_s: 30, ...extra };
}

/** True once `pid` is gone (or a zombie); waits at most `ms`. */
async function gone(pid: number, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
    if (!stat || /^\d+ \(.*\) Z/.test(stat)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

Deno.test("checks globs match basenames, or whole paths when they hold a slash", () => {
  assert.ok(matchesFilter("src/a.py", ["*.py"]));
  assert.ok(!matchesFilter("src/a.pyc", ["*.py"]));
  assert.ok(matchesFilter("src/a.ts", ["src/**/*.ts"]));
  assert.ok(matchesFilter("src/x/y/a.ts", ["src/**/*.ts"]));
  assert.ok(!matchesFilter("lib/a.ts", ["src/**/*.ts"]));
  assert.ok(!matchesFilter("src/x/a.ts", ["src/*.ts"]));
  assert.ok(matchesFilter("a.tsx", ["*.{ts,tsx}"]));
  assert.ok(matchesFilter("b1.js", ["b[0-9].js"]));
  assert.ok(!matchesFilter("bx.js", ["b[!x].js"]));
  assert.ok(matchesFilter("anything", undefined));
  assert.ok(matchesFilter("a+b(1).py", ["a+b(1).py"]));
  // The dialect of lib/glob/ (tests/glob_test.ts): a class never matches "/".
  assert.ok(!matchesFilter("a/b", ["a[!x]b"]));
});

Deno.test("checks quote {files} in strings and pass one argument each in arrays", () => {
  const files = ["a b.py", "it's.py", "-x.py", "ok.ts"];
  const s = expandCommand(check("s", "lint {files}", { files_filter: ["*.py"] }), files);
  assert.equal(s.command, `lint 'a b.py' 'it'\\''s.py' ./-x.py`);
  const a = expandCommand(check("a", ["lint", "--", "{files}"], { files_filter: ["*.py"] }), files);
  assert.deepEqual(a.command, ["lint", "--", "a b.py", "it's.py", "./-x.py"]);
  const none = expandCommand(check("n", "lint {files}", { files_filter: ["*.rs"] }), files);
  assert.equal(none.skipped, true);
  assert.equal(expandCommand(check("w", "make test"), []).skipped, false);
  assert.equal(shellQuote("plain/path.py"), "plain/path.py");
  assert.equal(shellQuote("$(rm -rf ~)"), "'$(rm -rf ~)'");
});

Deno.test("checks hand awkward file names to real processes intact", async () => {
  const names = ["a b.py", "it's.py", 'say "hi".py', "$(touch pwned).py", "-rf.py"];
  const root = await tempProject(Object.fromEntries(names.map((n) => [n, "x\n"])));
  const run = await runChecks(root, [
    check("str", `printf '<%s>\\n' {files} > str.out`, { files_filter: ["*.py"] }),
    check("argv", ["sh", "-c", `printf '<%s>\\n' "$@" > argv.out`, "sh", "{files}"]),
    // {files} inside a longer argv element (a script) is shell-quoted too.
    check("inner", ["sh", "-c", `printf '<%s>\\n' {files} > inner.out`]),
  ], { files: names });
  assert.deepEqual(run.results.map((r) => r.ok), [true, true, true]);
  const expected = names.map((n) => `<${n.startsWith("-") ? `./${n}` : n}>`).sort();
  for (const out of ["str.out", "argv.out", "inner.out"]) {
    const got = (await Deno.readTextFile(join(root, out))).trim().split("\n").sort();
    assert.deepEqual(got, expected, out);
  }
  await assert.rejects(() => Deno.lstat(join(root, "pwned")));
});

Deno.test("checks skip {files} checks with no matching file but always run the others", async () => {
  const root = await tempProject({ "a.ts": "" });
  const log = join(root, "checks.log");
  const run = await runChecks(root, [
    check("py", "echo py {files}", { files_filter: ["*.py"] }),
    check("ts", "echo ts {files}", { files_filter: ["*.ts"] }),
    check("all", "echo all > ran.txt"),
  ], { files: ["a.ts", "missing.ts"], logPath: log });
  assert.deepEqual(run.results.map((r) => [r.name, r.ok, r.skipped ?? false]), [
    ["py", true, true],
    ["ts", true, false],
    ["all", true, false],
  ]);
  assert.equal(run.failed_check, undefined);
  assert.equal(await Deno.readTextFile(join(root, "ran.txt")), "all\n");
  const text = await Deno.readTextFile(log);
  assert.match(text, /ts a\.ts\n/);
  assert.doesNotMatch(text, /missing\.ts\n/);
});

Deno.test("checks run all in order and report the first failure's output", async () => {
  const root = await tempProject();
  const progress: string[] = [];
  const run = await runChecks(root, [
    check("one", "echo one >> order.txt"),
    check("two", "echo two >> order.txt; echo 'AssertionError: 2 != 3' >&2; exit 3"),
    check("three", "echo three >> order.txt; exit 1"),
  ], { onProgress: (m) => progress.push(m) });
  assert.equal(await Deno.readTextFile(join(root, "order.txt")), "one\ntwo\nthree\n");
  assert.deepEqual(run.results.map((r) => r.ok), [true, false, false]);
  assert.equal(run.failed_check, "two");
  assert.match(run.failed_output!, /AssertionError: 2 != 3/);
  assert.deepEqual(progress, [
    "running check one 1/3",
    "running check two 2/3",
    "running check three 3/3",
  ]);
  const stop = await runChecks(root, [check("a", "exit 1"), check("b", "true")], {
    stopAtFirstFailure: true,
  });
  assert.deepEqual(stop.results.map((r) => r.name), ["a"]);
  assert.deepEqual(stop.not_run, ["b"]);
});

Deno.test("checks time out, fail, and leave no process behind", async () => {
  const root = await tempProject();
  const run = await runChecks(root, [
    check("hang", "echo $$ > sh.pid; sleep 300 & echo $! > bg.pid; echo started; sleep 300", {
      timeout_s: 1,
    }),
    check("after", "true"),
  ]);
  assert.equal(run.results[0].ok, false);
  assert.equal(run.results[0].timed_out, true);
  assert.equal(run.results[1].ok, true);
  assert.equal(run.failed_check, "hang");
  assert.match(run.failed_output!, /started/);
  assert.match(run.failed_output!, /timed out after 1 s/);
  for (const f of ["sh.pid", "bg.pid"]) {
    const pid = Number(await Deno.readTextFile(join(root, f)));
    assert.ok(await gone(pid), `${f} ${pid} still running`);
  }
});

Deno.test("checks cancel the running check and reject", async () => {
  const root = await tempProject();
  const controller = new AbortController();
  const running = runChecks(root, [check("slow", "echo $$ > sh.pid; sleep 300")], {
    signal: controller.signal,
  });
  while (!(await Deno.stat(join(root, "sh.pid")).catch(() => undefined))?.size) {
    await new Promise((r) => setTimeout(r, 20));
  }
  controller.abort();
  await assert.rejects(running, (err: Error) => err.name === "AbortError");
  assert.ok(await gone(Number(await Deno.readTextFile(join(root, "sh.pid")))));
});

Deno.test("checks keep 50 MB of output in the log and only a trimmed part in memory", async () => {
  const root = await tempProject();
  const log = join(root, "checks.log");
  try {
    const run = await runChecks(root, [
      check("loud", "echo FIRST; head -c 52428800 /dev/zero | tr '\\0' x; echo; echo LAST; exit 1"),
    ], { logPath: log });
    assert.equal(run.failed_check, "loud");
    assert.ok(run.failed_output!.length < 2200, String(run.failed_output!.length));
    assert.match(run.failed_output!, /^FIRST/);
    assert.match(run.failed_output!, /LAST$/);
    assert.ok((await Deno.stat(log)).size > 50 * 1024 * 1024);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("checks trimOutput keeps head and tail and strips colours", () => {
  const text = "\x1b[31mred\x1b[0m\n" + "line\n".repeat(2000) + "the end";
  const t = trimOutput(text, 300);
  assert.ok(t.length < 400);
  assert.match(t, /^red\n/);
  assert.match(t, /the end$/);
  assert.match(t, /characters cut/);
  assert.equal(trimOutput("short\n"), "short");
});

Deno.test("checks pre-flight reads the programs of a shell string's plain prefix only", () => {
  const names = (c: string | string[]) => programsOf(c).map((s) => s.program);
  assert.deepEqual(names("pytest -q"), ["pytest"]);
  assert.deepEqual(names("FOO=1 ruff check . && cd sub && time pytestt -x | tee out"), [
    "ruff",
    "cd",
    "pytestt",
    "tee",
  ]);
  assert.deepEqual(names("python3 -m pytest -q -x || [ $? -eq 5 ]"), ["python3", "["]);
  assert.deepEqual(names("python3 -m py_compile {files}"), ["python3"]);
  // Past a quote or `$` nothing is read: a word cut there is not a program.
  assert.deepEqual(names('sh -c "pytestt"; nope'), ["sh"]);
  assert.deepEqual(names("$RUNNER test"), []);
  assert.deepEqual(names("ec$x"), []);
  assert.deepEqual(names(["./run tests.sh", "-q"]), ["./run tests.sh"]);
  assert.deepEqual(names(["{files}"]), []);
  // A file named by a path after the first command may be built by an earlier one.
  assert.deepEqual(names("rustc -o check_bin check.rs && ./check_bin -q"), ["rustc"]);
  assert.deepEqual(names("./build.sh; ./out/test"), ["./build.sh"]);
  // Where PATH changes, nothing after it is read.
  assert.deepEqual(names(". venv/bin/activate && pytest -q"), []);
  assert.deepEqual(names("ruff check . && PATH=/opt/x/bin jest"), ["ruff"]);
  assert.deepEqual(names("export PATH=/opt/bin; jest"), []);
});

Deno.test("checks pre-flight tells a check that cannot start from one that starts and fails", async () => {
  const root = await tempProject({ "t.sh": "exit 0\n", "bin/ok.sh": "#!/bin/sh\nexit 3\n" });
  await Deno.chmod(join(root, "bin/ok.sh"), 0o755);
  const one = async (command: string | string[], files?: string[]) =>
    (await checkCannotStart(root, [check("c", command, { files_filter: ["*.py"] })], {
      files,
      configName: ".localexec.json",
    }))?.message;
  try {
    assert.match(
      (await one("pytestt -q"))!,
      /^check c cannot start: pytestt: command not found — is it installed and on PATH\? fix the "command" of checks\.c in \.localexec\.json$/,
    );
    assert.match((await one(["no-such-tool-xyz", "-q"]))!, /no-such-tool-xyz: command not found/);
    assert.match(
      (await one("./t.sh"))!,
      /\.\/t\.sh: permission denied \(the file is not executable/,
    );
    assert.match((await one("./missing.sh"))!, /\.\/missing\.sh: no such file/);
    assert.match(
      (await one("python3 -m no_such_module_xyz -q"))!,
      /python3 -m no_such_module_xyz: No module named no_such_module_xyz/,
    );
    // Checks that start, whatever they then exit with, pass the pre-flight.
    for (
      const ok of [
        "false",
        "exit 1",
        "./bin/ok.sh",
        "cd . && test -f nope",
        "python3 -m json.tool -h",
      ]
    ) {
      assert.equal(await one(ok), undefined, ok);
    }
    // A version manager's shim for a program the current version lacks (pyenv's exits 127).
    const shims = join(root, "shims");
    await Deno.mkdir(shims);
    const shim = (name: string, code: number) =>
      Deno.writeTextFile(
        join(shims, name),
        `#!/bin/sh\necho "pyenv: ${name}: command not found" >&2\nexit ${code}\n`,
        { mode: 0o755 },
      );
    await shim("lacking-xyz", 127);
    await shim("there-xyz", 2); // a program that takes no --version still starts
    const path = `${shims}:${Deno.env.get("PATH")}`;
    assert.match(
      (await cannotStart("lacking-xyz -q", root, { path }))!.problem,
      /^lacking-xyz cannot start: `lacking-xyz --version` exited 127: pyenv: lacking-xyz: command not found$/,
    );
    assert.equal(await cannotStart("there-xyz -q", root, { path }), undefined);
    // A {files} check that would be skipped for these files is left alone.
    assert.equal(await one("pytestt {files}", ["a.ts"]), undefined);
    assert.match((await one("pytestt {files}", ["a.py"]))!, /pytestt: command not found/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
