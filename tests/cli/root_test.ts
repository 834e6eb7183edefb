/**
 * Which root is chosen and whether it is served: `--root` and the working folder beat an inherited
 * `INIT_CWD`; `/` is refused; the home folder and a folder with no project marker are warned about
 * unless `--root` names them.
 */
import assert from "node:assert/strict";
import { chooseRoot, judgeRoot } from "../../lib/cli/mod.ts";
import { tempProject } from "../helpers/project.ts";

Deno.test("--root and the working folder beat an inherited INIT_CWD", () => {
  const own = "/opt/localexec";
  assert.deepEqual(chooseRoot("sub", "/work/p", "/elsewhere", own), {
    path: "/work/p/sub",
    explicit: true,
  });
  assert.deepEqual(chooseRoot(undefined, "/work/p", "/elsewhere", own), {
    path: "/work/p",
    explicit: false,
  });
  // `deno task --config /opt/localexec/deno.json start` runs in localexec's own folder: there
  // INIT_CWD says where the user started it.
  assert.deepEqual(chooseRoot(undefined, own, "/work/p", own), {
    path: "/work/p",
    explicit: false,
  });
  assert.deepEqual(chooseRoot(undefined, own, undefined, own), { path: own, explicit: false });
});

Deno.test("/ is refused, even when --root names it", async () => {
  for (const explicit of [false, true]) {
    const verdict = await judgeRoot("/", explicit);
    assert.match(String(verdict.refuse), /refusing to serve \//);
  }
});

Deno.test("a folder without a project marker is warned about unless --root names it", async () => {
  const bare = await tempProject({ "notes.txt": "x" });
  assert.match(String((await judgeRoot(bare, false)).warning), /has no project marker/);
  assert.deepEqual(await judgeRoot(bare, true), {});
  const project = await tempProject({ "pyproject.toml": "" });
  assert.deepEqual(await judgeRoot(project, false), {});
});

Deno.test("the home folder is warned about unless --root names it", async () => {
  const home = await tempProject({ ".git/HEAD": "ref: refs/heads/main\n" });
  const before = Deno.env.get("HOME");
  Deno.env.set("HOME", home);
  try {
    assert.match(String((await judgeRoot(home, false)).warning), /serving your home folder/);
    assert.deepEqual(await judgeRoot(home, true), {});
  } finally {
    if (before === undefined) Deno.env.delete("HOME");
    else Deno.env.set("HOME", before);
  }
});

Deno.test("a bare folder's warning is on stderr and in status; / is refused by call", async () => {
  const bare = await tempProject({ "notes.txt": "x" });
  const main = new URL("../../main.ts", import.meta.url).pathname;
  const run = (cwd: string, args: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "-A", main, ...args],
      cwd,
      env: { NO_COLOR: "1", OLLAMA_HOST: "127.0.0.1:9" },
    }).output();
  const status = await run(bare, ["status"]);
  assert.match(new TextDecoder().decode(status.stderr), /WARNING: .* has no project marker/);
  const json = JSON.parse(new TextDecoder().decode(status.stdout));
  assert.match(String(json.root_warning), /has no project marker/);
  const named = await run(bare, ["status", "--root", bare]);
  assert.equal(JSON.parse(new TextDecoder().decode(named.stdout)).root_warning, undefined);
  const slash = await run("/", ["call", "list_files"]);
  assert.equal(slash.code, 2);
  assert.match(new TextDecoder().decode(slash.stderr), /refusing to serve \//);
});
