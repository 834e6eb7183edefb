/**
 * Checked I/O: a name swapped between the path check and its use (a folder or file replaced by a
 * link out of the root) is refused, and nothing is read from or left outside.
 */
import assert from "node:assert/strict";
import { join } from "../lib/deps.ts";
import { PATH_REASONS, PathError } from "../lib/errors.ts";
import {
  makeParents,
  openChecked,
  proveHandleAt,
  readChecked,
  removeChecked,
  setProcCheckForTests,
  writeChecked,
} from "../lib/fs_atomic.ts";
import { resolveForRead, resolveForWrite } from "../lib/paths.ts";

async function _lab() {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-checked-" }));
  const root = join(base, "root");
  const outside = join(base, "outside");
  await Deno.mkdir(join(root, "dir"), { recursive: true });
  await Deno.mkdir(outside);
  await Deno.writeTextFile(join(root, "dir", "f.txt"), "inside\n");
  await Deno.writeTextFile(join(outside, "f.txt"), "SECRET\n");
  return { base, root, outside };
}

/** Replaces the folder `dir` of the root by a link to `outside` (as a swapper would). */
async function _swap(root: string, outside: string): Promise<void> {
  await Deno.rename(join(root, "dir"), join(root, "dir.real"));
  await Deno.symlink(outside, join(root, "dir"));
}

function _changed(err: unknown): boolean {
  return err instanceof PathError && err.reason === PATH_REASONS.CHANGED;
}

Deno.test("checked read refuses a folder swapped for a link after the check", async () => {
  const { base, root, outside } = await _lab();
  const safe = await resolveForRead(root, "dir/f.txt");
  assert.equal(new TextDecoder().decode(await readChecked(root, safe)), "inside\n");
  await _swap(root, outside);
  await assert.rejects(() => readChecked(root, safe), _changed);
  await Deno.remove(base, { recursive: true });
});

Deno.test("checked read refuses a file swapped for a link after the check", async () => {
  const { base, root, outside } = await _lab();
  const safe = await resolveForRead(root, "dir/f.txt");
  await Deno.remove(join(root, "dir", "f.txt"));
  await Deno.symlink(join(outside, "f.txt"), join(root, "dir", "f.txt"));
  assert.throws(() => openChecked(root, safe), _changed);
  await Deno.remove(base, { recursive: true });
});

Deno.test("checked write refuses a swapped folder and leaves nothing outside or inside", async () => {
  const { base, root, outside } = await _lab();
  const safe = await resolveForWrite(root, "dir/g.txt");
  await _swap(root, outside);
  await assert.rejects(() => writeChecked(root, safe, "data\n"), _changed);
  assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name), ["f.txt"]);
  assert.deepEqual([...Deno.readDirSync(join(root, "dir.real"))].map((e) => e.name), ["f.txt"]);
  await Deno.remove(base, { recursive: true });
});

Deno.test("checked write gives the exact mode whatever the umask, and keeps an old file's", async () => {
  const { base, root } = await _lab();
  const exec = await resolveForWrite(root, "dir/run.sh");
  assert.equal(await writeChecked(root, exec, "#!/bin/sh\n", { mode: 0o777 }), 0o777);
  assert.equal((Deno.statSync(join(root, "dir/run.sh")).mode ?? 0) & 0o777, 0o777);
  Deno.chmodSync(join(root, "dir/f.txt"), 0o640);
  await writeChecked(root, await resolveForWrite(root, "dir/f.txt"), "new\n");
  assert.equal((Deno.statSync(join(root, "dir/f.txt")).mode ?? 0) & 0o777, 0o640);
  assert.equal(Deno.readTextFileSync(join(root, "dir/f.txt")), "new\n");
  await Deno.remove(base, { recursive: true });
});

Deno.test("makeParents refuses a link planted after the check and makes nothing outside", async () => {
  const { base, root, outside } = await _lab();
  const safe = await resolveForWrite(root, "dir/new/deeper/h.txt");
  await _swap(root, outside);
  await assert.rejects(() => makeParents(root, safe), _changed);
  assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name), ["f.txt"]);
  await Deno.remove(base, { recursive: true });
});

Deno.test("makeParents names each folder and its temporary name before making either", async () => {
  const { base, root } = await _lab();
  const heard: string[] = [];
  const temps: string[] = [];
  const exists = (rel: string) => Deno.lstat(join(root, rel)).then(() => true, () => false);
  const made = await makeParents(
    root,
    await resolveForWrite(root, "a/b/c.txt"),
    async (rel, temp) => {
      heard.push(rel);
      temps.push(temp);
      assert.deepEqual([await exists(rel), await exists(temp)], [false, false]);
    },
  );
  assert.deepEqual([heard, made], [["a", "a/b"], ["a", "a/b"]]);
  assert.match(temps[0], /^\.a\.[0-9a-f]{8}\.localexec-tmp$/);
  assert.match(temps[1], /^a\/\.b\.[0-9a-f]{8}\.localexec-tmp$/);
  assert.deepEqual([await exists(temps[0]), await exists(temps[1])], [false, false]);
  assert.ok(Deno.statSync(join(root, "a/b")).isDirectory);
  assert.deepEqual([...Deno.readDirSync(join(root, "a"))].map((e) => e.name), ["b"]);
  await Deno.remove(base, { recursive: true });
});

Deno.test("removeChecked removes a file or an empty folder, never what a link leads to", async () => {
  const { base, root, outside } = await _lab();
  await Deno.symlink(join(outside, "f.txt"), join(root, "link.txt"));
  assert.throws(() => removeChecked(root, "link.txt"), PathError);
  assert.ok(Deno.statSync(join(outside, "f.txt")).isFile);
  assert.equal(removeChecked(root, "dir/f.txt"), true);
  assert.equal(removeChecked(root, "dir/f.txt"), false);
  assert.equal(removeChecked(root, "dir", true), true);
  await Deno.remove(base, { recursive: true });
});

// ---- the lstat fallback (where /proc/self/fd cannot be read: macOS, the read and edit presets) ----

/** Runs `fn` twice: with the kernel's `/proc` record, then with every check on the fallback. */
async function _bothChecks(fn: (mode: string) => Promise<void>): Promise<void> {
  await fn("proc");
  setProcCheckForTests(false);
  try {
    await fn("fallback");
  } finally {
    setProcCheckForTests(undefined);
  }
}

Deno.test("a handle on another file than the one at the path is refused, by either check", async () => {
  await _bothChecks(async (mode) => {
    const { base, root, outside } = await _lab();
    const abs = join(root, "dir", "f.txt");
    {
      using mine = Deno.openSync(abs, { read: true });
      proveHandleAt(root, abs, mine.statSync());
    }
    // What a swap between the name's lstat and its open gives: a handle on the file behind a
    // link, while the name shows a plain file again (same folders, not a link, another inode).
    using other = Deno.openSync(join(outside, "f.txt"), { read: true });
    assert.throws(() => proveHandleAt(root, abs, other.statSync()), _changed, mode);
    await Deno.remove(base, { recursive: true });
  });
});

Deno.test("swapped folders and files are refused on the fallback check too", async () => {
  await _bothChecks(async (mode) => {
    const { base, root, outside } = await _lab();
    const read = await resolveForRead(root, "dir/f.txt");
    const write = await resolveForWrite(root, "dir/g.txt");
    const deep = await resolveForWrite(root, "dir/new/h.txt");
    assert.equal(new TextDecoder().decode(await readChecked(root, read)), "inside\n", mode);
    await _swap(root, outside);
    await assert.rejects(() => readChecked(root, read), _changed, mode);
    await assert.rejects(() => writeChecked(root, write, "data\n"), _changed, mode);
    await assert.rejects(() => makeParents(root, deep), _changed, mode);
    assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name), ["f.txt"], mode);
    await Deno.remove(base, { recursive: true });
  });
});
