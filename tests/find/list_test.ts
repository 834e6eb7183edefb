/**
 * find's git listing: the index is read as `mode<TAB>path` (`ls-files --format`, git 2.38+), and
 * as `ls-files -s` where git does not know `--format`; both skip links and submodules.
 */
import assert from "node:assert/strict";
import { findInProject, resetFind } from "../../lib/find/mod.ts";
import { git, tempProject } from "../helpers/project.ts";

const MOD = new URL("../../lib/find/mod.ts", import.meta.url).href;

Deno.test("find lists the index the same with and without `git ls-files --format`", async () => {
  const root = await tempProject({
    "a.txt": "needle a\n",
    "sub/b.txt": "needle b\n",
    "ünï/c.txt": "needle c\n",
    "untracked.txt": "needle d\n",
  });
  const fake = await Deno.makeTempDir();
  try {
    await Deno.symlink("a.txt", `${root}/link.txt`);
    await git(root, "init", "-q");
    await git(root, "add", "a.txt", "sub", "ünï", "link.txt");
    await git(root, "commit", "-qm", "init");
    const options = { pattern: "needle", maxResults: 100, ignoreCase: false };
    const real = await findInProject(root, options);
    resetFind();
    assert.deepEqual(real.matches, [
      "a.txt:1:needle a",
      "sub/b.txt:1:needle b",
      "untracked.txt:1:needle d",
      "ünï/c.txt:1:needle c",
    ]);

    // A git that refuses --format, as git before 2.38 does, and says so in a marker file.
    const gitPath = new TextDecoder().decode(
      (await new Deno.Command("sh", { args: ["-c", "command -v git"], stdout: "piped" }).output())
        .stdout,
    ).trim();
    await Deno.writeTextFile(
      `${fake}/git`,
      `#!/bin/sh\nfor a in "$@"; do case "$a" in --format=*) : > "${fake}/refused"; ` +
        `echo "error: unknown option" >&2; exit 129;; esac; done\nexec "${gitPath}" "$@"\n`,
    );
    await Deno.chmod(`${fake}/git`, 0o755);
    const code = `import { findInProject } from ${JSON.stringify(MOD)};
      const r = await findInProject(${JSON.stringify(root)}, ${JSON.stringify(options)});
      console.log(JSON.stringify(r.matches)); Deno.exit(0);`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", code],
      env: { PATH: `${fake}:${Deno.env.get("PATH")}` },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.ok(await Deno.stat(`${fake}/refused`), "the old-git path was taken");
    assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), real.matches);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(fake, { recursive: true });
  }
});
