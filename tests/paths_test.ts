/**
 * The path guard's threat battery: every way a caller might read or write outside the project
 * root, or write where tools may not, against real temp folders and real symlinks.
 *
 * Layout of each lab: `<base>/proj` is the root; `<base>/outside/secret.txt` is what must never be
 * read or written; `<base>/proj2`, `proj-old`, `proj.bak`, `projectile` are sibling-prefix traps.
 */
import assert from "node:assert/strict";
import { dirname, join } from "../lib/deps.ts";
import { writeFileAtomic } from "../lib/fs_atomic.ts";
import {
  ensureParent,
  isInside,
  PathError,
  PathOutsideRootError,
  ProtectedPathError,
  resolveForRead,
  resolveForWrite,
  type SafePath,
  toRel,
} from "../lib/paths.ts";

const SECRET = "SECRET\n";
const SIBLINGS = ["proj2", "proj-old", "proj.bak", "projectile"];

interface Lab {
  base: string;
  root: string;
  outside: string;
  secret: string;
}

async function _makeLab(rootName: string): Promise<Lab> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-paths-" }));
  const root = join(base, rootName);
  const outside = join(base, "outside");
  await Deno.mkdir(root);
  await Deno.mkdir(outside);
  const secret = join(outside, "secret.txt");
  await Deno.writeTextFile(secret, SECRET);
  for (const sib of SIBLINGS) {
    await Deno.mkdir(join(base, sib));
    await Deno.writeTextFile(join(base, sib, "secret.txt"), SECRET);
  }
  return { base, root, outside, secret };
}

/** Runs `fn` in a fresh lab and removes it afterwards. */
async function withLab(fn: (lab: Lab) => Promise<void>, rootName = "proj"): Promise<void> {
  const lab = await _makeLab(rootName);
  try {
    await fn(lab);
  } finally {
    await Deno.remove(lab.base, { recursive: true });
  }
}

/** Creates files (path → content) and symlinks (path → link text) under the root. */
async function plant(
  root: string,
  files: Record<string, string>,
  links: Record<string, string> = {},
): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(root, rel)), { recursive: true });
    await Deno.writeTextFile(join(root, rel), content);
  }
  for (const [rel, target] of Object.entries(links)) {
    await Deno.mkdir(dirname(join(root, rel)), { recursive: true });
    await Deno.symlink(target, join(root, rel));
  }
}

/** What a writing tool does: check, create parents, write atomically. */
async function writeVia(root: string, input: string, data: string): Promise<SafePath> {
  const safe = await resolveForWrite(root, input);
  await ensureParent(root, safe);
  await writeFileAtomic(safe.abs, data);
  return safe;
}

async function refused(
  promise: Promise<unknown>,
  kind: typeof PathError,
  pattern?: RegExp,
): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof kind, `expected ${kind.name}, got ${err}`);
    if (pattern) assert.match((err as Error).message, pattern);
    return true;
  });
}

/** Both resolvers refuse `input`, and a full write through it leaves the outside untouched. */
async function refusedBoth(
  lab: Lab,
  input: string,
  kind: typeof PathError,
  pattern?: RegExp,
): Promise<void> {
  await refused(resolveForRead(lab.root, input), kind, pattern);
  await refused(resolveForWrite(lab.root, input), kind, pattern);
  await refused(writeVia(lab.root, input, "PWNED"), kind, pattern);
  await assertUntouched(lab);
}

/** The outside folder and every sibling still hold exactly what the lab put there. */
async function assertUntouched(lab: Lab): Promise<void> {
  assert.equal(await Deno.readTextFile(lab.secret), SECRET);
  const names = [];
  for await (const e of Deno.readDir(lab.outside)) names.push(e.name);
  assert.deepEqual(names.filter((n) => !n.startsWith("keep-")).sort(), ["secret.txt"]);
  for (const sib of SIBLINGS) {
    const inSib = [];
    for await (const e of Deno.readDir(join(lab.base, sib))) inSib.push(e.name);
    assert.deepEqual(inSib, ["secret.txt"], sib);
    assert.equal(await Deno.readTextFile(join(lab.base, sib, "secret.txt")), SECRET);
  }
  const top = [];
  for await (const e of Deno.readDir(lab.base)) top.push(e.name);
  assert.ok(top.every((n) => n !== "x" && n !== "x.txt" && n !== "PWNED"), top.join(","));
}

async function isLink(path: string): Promise<boolean> {
  return (await Deno.lstat(path)).isSymlink;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

// ── `..` traversal ────────────────────────────────────────────────────────────────────────────

Deno.test("paths refuse traversal by ..", async (t) => {
  await withLab(async (lab) => {
    await plant(lab.root, { "a/keep.txt": "k" });
    const deep = "a/".repeat(1000) + "../".repeat(1001);
    for (
      const input of [
        "..",
        "../",
        "../outside/secret.txt",
        "a/../../x",
        "a/../../outside/secret.txt",
        "./../x",
        "a/b/../../../x",
        "a/./../.././x.txt",
        "../proj/../outside/secret.txt",
        deep,
        deep + "outside/secret.txt",
        deep + "x",
      ]
    ) {
      await t.step(
        `refuses ${input.length > 40 ? `${input.slice(0, 20)}… (${input.length})` : input}`,
        () => refusedBoth(lab, input, PathOutsideRootError, /escapes the project root/),
      );
    }
    await t.step("allows .. that stays inside, even 1,000 deep", async () => {
      const back = "a/".repeat(1000) + "../".repeat(1000) + "x.txt";
      for (const input of [back, "a/../x.txt", "a/b/../../x.txt", "a/../a/../x.txt"]) {
        assert.equal((await resolveForRead(lab.root, input)).rel, "x.txt");
        assert.equal((await resolveForWrite(lab.root, input)).rel, "x.txt");
      }
      await writeVia(lab.root, back, "inside");
      assert.equal(await Deno.readTextFile(join(lab.root, "x.txt")), "inside");
    });
    await t.step("treats a backslash as part of a name on POSIX", async () => {
      const safe = await writeVia(lab.root, "..\\..\\x", "bs");
      assert.equal(safe.rel, "..\\..\\x");
      assert.equal(await Deno.readTextFile(join(lab.root, "..\\..\\x")), "bs");
    });
  });
});

// ── absolute paths ────────────────────────────────────────────────────────────────────────────

Deno.test("paths refuse absolute paths outside the root", async (t) => {
  await withLab(async (lab) => {
    for (
      const input of [
        "/etc/passwd",
        "/tmp",
        lab.secret,
        lab.outside,
        join(lab.outside, "new.txt"),
        `${lab.root}/../outside/secret.txt`,
        `${lab.root}/a/../../outside/secret.txt`,
      ]
    ) {
      await t.step(
        `refuses ${input.replace(lab.base, "<base>")}`,
        () => refusedBoth(lab, input, PathOutsideRootError, /outside the project root/),
      );
    }
    await t.step("accepts absolute paths inside the root", async () => {
      await plant(lab.root, { "f.txt": "f" });
      const read = await resolveForRead(lab.root, join(lab.root, "f.txt"));
      assert.deepEqual(read, { abs: join(lab.root, "f.txt"), rel: "f.txt", exists: true });
      const write = await writeVia(lab.root, join(lab.root, "new/n.txt"), "n");
      assert.equal(write.rel, "new/n.txt");
      assert.equal(await Deno.readTextFile(join(lab.root, "new/n.txt")), "n");
    });
  });
});

// ── sibling prefixes ──────────────────────────────────────────────────────────────────────────

Deno.test("paths refuse siblings whose names start with the root's name", async (t) => {
  await withLab(async (lab) => {
    for (const sib of SIBLINGS) {
      await t.step(`refuses ${sib}`, async () => {
        const abs = join(lab.base, sib);
        await refusedBoth(lab, join(abs, "secret.txt"), PathOutsideRootError);
        await refusedBoth(lab, join(abs, "new.txt"), PathOutsideRootError);
        await refusedBoth(lab, abs, PathOutsideRootError);
        await refusedBoth(lab, `../${sib}/secret.txt`, PathOutsideRootError);
        await refusedBoth(lab, `${lab.root}${sib.slice(4)}/secret.txt`, PathOutsideRootError);
        assert.equal(isInside(lab.root, join(abs, "secret.txt")), false);
      });
    }
    await t.step("refuses a link to a sibling", async () => {
      await plant(lab.root, {}, {
        sib: join(lab.base, "proj2"),
        sibfile: "../proj-old/secret.txt",
      });
      await refusedBoth(lab, "sib/secret.txt", PathOutsideRootError, /through a link/);
      await refusedBoth(lab, "sibfile", PathOutsideRootError, /through a link/);
    });
    await t.step("isInside compares whole names", () => {
      assert.equal(isInside(lab.root, lab.root), true);
      assert.equal(isInside(lab.root, `${lab.root}/x`), true);
      assert.equal(isInside(`${lab.root}/`, `${lab.root}/x`), true);
      assert.equal(isInside(lab.root, `${lab.root}2`), false);
      assert.equal(isInside(lab.root, `${lab.root}-old/x`), false);
      assert.equal(isInside(lab.root, lab.base), false);
      assert.equal(toRel(lab.root, lab.root), ".");
      assert.equal(toRel(lab.root, `${lab.root}/a/b`), "a/b");
    });
  });
});

// ── the root's parent and / ───────────────────────────────────────────────────────────────────

Deno.test("paths refuse the root's parent and /", async (t) => {
  await withLab(async (lab) => {
    for (
      const input of [
        "..",
        "../..",
        lab.base,
        `${lab.base}/`,
        join(lab.root, ".."),
        "/",
        "//",
        "/.",
        "/..",
        "/../../..",
      ]
    ) {
      await t.step(
        `refuses ${input.replace(lab.base, "<base>")}`,
        () => refusedBoth(lab, input, PathOutsideRootError),
      );
    }
    await t.step("reads the root itself but never writes it", async () => {
      for (const input of ["", ".", "./", lab.root, `${lab.root}/`, "a/.."]) {
        const safe = await resolveForRead(lab.root, input);
        assert.deepEqual(safe, { abs: lab.root, rel: ".", exists: true });
        await refused(resolveForWrite(lab.root, input), PathError, /project root itself/);
      }
    });
  });
});

// ── NUL bytes ─────────────────────────────────────────────────────────────────────────────────

Deno.test("paths refuse NUL bytes anywhere", async (t) => {
  await withLab(async (lab) => {
    await plant(lab.root, { "f.txt": "f" });
    for (
      const [name, input] of [
        ["start", "\0f.txt"],
        ["middle", "f\0.txt"],
        ["end", "f.txt\0"],
        ["alone", "\0"],
        ["folder", "a/\0/b"],
        ["absolute", `${lab.root}/f.txt\0`],
        ["with ..", "../\0"],
        ["truncation trick", "f.txt\0../../outside/secret.txt"],
      ]
    ) {
      await t.step(
        `refuses a NUL at the ${name}`,
        () => refusedBoth(lab, input, PathError, /NUL byte/),
      );
    }
  });
});

// ── // and /./ ────────────────────────────────────────────────────────────────────────────────

Deno.test("paths normalise // and /./", async (t) => {
  await withLab(async (lab) => {
    await plant(lab.root, { "a/b.txt": "b" });
    for (
      const input of [
        "a//b.txt",
        "a/./b.txt",
        "./a/b.txt",
        ".//a//./b.txt",
        "a/b.txt/",
        `${lab.root}//a/./b.txt`,
        `${lab.root}/./a//b.txt`,
      ]
    ) {
      await t.step(`resolves ${input.replace(lab.root, "<root>")} to a/b.txt`, async () => {
        const read = await resolveForRead(lab.root, input);
        assert.deepEqual(read, { abs: join(lab.root, "a/b.txt"), rel: "a/b.txt", exists: true });
        assert.equal((await resolveForWrite(lab.root, input)).rel, "a/b.txt");
      });
    }
    for (const input of [".//..//x", "a/.//../..//x", "a//..//..//outside/secret.txt"]) {
      await t.step(`refuses ${input}`, () => refusedBoth(lab, input, PathOutsideRootError));
    }
  });
});

// ── names that only look like traversal ───────────────────────────────────────────────────────

Deno.test("paths allow names that only look like traversal", async (t) => {
  await withLab(async (lab) => {
    for (
      const input of [
        "..test",
        "te..st",
        "...",
        "....",
        "..a/..b",
        "%2e%2e",
        "%2E%2E/%2e%2e/x",
        "..%2f..%2fx",
        ".. /x",
        "x..",
        "...d/.../x",
      ]
    ) {
      await t.step(`allows ${input}`, async () => {
        const safe = await writeVia(lab.root, input, input);
        assert.equal(safe.rel, input);
        assert.equal(safe.abs, join(lab.root, input));
        assert.equal(await Deno.readTextFile(join(lab.root, input)), input);
        const read = await resolveForRead(lab.root, input);
        assert.deepEqual(read, { abs: join(lab.root, input), rel: input, exists: true });
        await assertUntouched(lab);
      });
    }
  });
});

// ── NFC and NFD look-alikes ───────────────────────────────────────────────────────────────────

Deno.test("paths treat NFC and NFD look-alikes as different names", async (t) => {
  const nfc = "proj\u00e9";
  const nfd = "proje\u0301";
  assert.equal(nfc.normalize("NFD"), nfd);
  await withLab(async (lab) => {
    const twin = join(lab.base, nfd);
    await Deno.mkdir(twin);
    await Deno.writeTextFile(join(twin, "secret.txt"), SECRET);
    await t.step("refuses the NFD twin of the root by absolute path", async () => {
      await refusedBoth(lab, join(twin, "secret.txt"), PathOutsideRootError);
      await refusedBoth(lab, join(twin, "new.txt"), PathOutsideRootError);
      await refusedBoth(lab, twin, PathOutsideRootError);
      assert.equal(isInside(lab.root, join(twin, "secret.txt")), false);
    });
    await t.step("refuses the NFD twin by a relative path", async () => {
      await refusedBoth(lab, `../${nfd}/secret.txt`, PathOutsideRootError);
    });
    await t.step("refuses a link to the NFD twin", async () => {
      await plant(lab.root, {}, { twin: twin });
      await refusedBoth(lab, "twin/secret.txt", PathOutsideRootError, /through a link/);
    });
    await t.step("accepts the root by its own NFC name", async () => {
      const safe = await writeVia(lab.root, join(lab.base, nfc, "f.txt"), "f");
      assert.equal(safe.rel, "f.txt");
    });
    await t.step("keeps NFD and NFC names inside the root as separate files", async () => {
      const cafeNfd = "cafe\u0301.txt";
      const cafeNfc = "caf\u00e9.txt";
      assert.equal((await writeVia(lab.root, cafeNfd, "nfd")).rel, cafeNfd);
      assert.equal((await writeVia(lab.root, cafeNfc, "nfc")).rel, cafeNfc);
      assert.equal(await Deno.readTextFile(join(lab.root, cafeNfd)), "nfd");
      assert.equal(await Deno.readTextFile(join(lab.root, cafeNfc)), "nfc");
      assert.equal((await resolveForRead(lab.root, cafeNfd)).rel, cafeNfd);
      const inTwin = [];
      for await (const e of Deno.readDir(twin)) inTwin.push(e.name);
      assert.deepEqual(inTwin, ["secret.txt"]);
      assert.equal(await Deno.readTextFile(join(twin, "secret.txt")), SECRET);
    });
  }, nfc);
});

// ── symlinked files ───────────────────────────────────────────────────────────────────────────

Deno.test("paths refuse a symlinked file that points outside", async (t) => {
  await withLab(async (lab) => {
    await plant(lab.root, {}, {
      leak: lab.secret,
      "leak-rel": "../outside/secret.txt",
      "sub/leak-deep": "../../outside/secret.txt",
      "leak-dir": lab.outside,
      "leak-up": "..",
      "leak-slash": "/",
    });
    for (
      const input of ["leak", "leak-rel", "sub/leak-deep", "leak-dir", "leak-up", "leak-slash"]
    ) {
      await t.step(
        `refuses ${input}`,
        () => refusedBoth(lab, input, PathOutsideRootError, /through a link/),
      );
    }
    await t.step("refuses names below links to folders outside", async () => {
      await refusedBoth(lab, "leak-up/outside/secret.txt", PathOutsideRootError);
      await refusedBoth(lab, "leak-slash/etc/passwd", PathOutsideRootError);
      await refusedBoth(lab, join(lab.root, "leak-dir/secret.txt"), PathOutsideRootError);
    });
    await t.step("leaves the links in place", async () => {
      assert.ok(await isLink(join(lab.root, "leak")));
      assert.equal(await Deno.readTextFile(lab.secret), SECRET);
    });
  });
});

Deno.test("paths refuse a chain of links that ends outside", async (t) => {
  await withLab(async (lab) => {
    await plant(lab.root, {}, {
      l1: "l2",
      l2: "sub/l3",
      "sub/l3": "../l4",
      l4: "../outside/secret.txt",
    });
    for (const input of ["l1", "l2", "sub/l3", "l4"]) {
      await t.step(
        `refuses ${input}`,
        () => refusedBoth(lab, input, PathOutsideRootError, /through a link/),
      );
    }
    await t.step("refuses a chain that leaves through a linked folder", async () => {
      await plant(lab.root, {}, { c1: "c2/secret.txt", c2: "c3", c3: lab.outside });
      await refusedBoth(lab, "c1", PathOutsideRootError);
    });
    await t.step("follows .. in a link's text from the link's real folder", async () => {
      // kernel: p -> outside/deep, so p/../secret.txt is outside/secret.txt; lexically it is in root
      await Deno.mkdir(join(lab.outside, "keep-deep"));
      await plant(lab.root, { "secret.txt": "inside" }, {
        p: join(lab.outside, "keep-deep"),
        k: "p/../secret.txt",
      });
      await refusedBoth(lab, "k", PathOutsideRootError);
    });
  });
});

// ── symlinked folders ─────────────────────────────────────────────────────────────────────────

Deno.test("paths refuse a symlinked folder that points outside", async (t) => {
  await withLab(async (lab) => {
    await plant(lab.root, {}, {
      od: lab.outside,
      "rel-od": "../outside",
      "a/b": lab.outside,
    });
    for (
      const input of [
        "od",
        "od/secret.txt",
        "od/new.txt",
        "od/deep/new.txt",
        "rel-od/secret.txt",
        "a/b/secret.txt",
        "a/b/c/d.txt",
      ]
    ) {
      await t.step(
        `refuses ${input}`,
        () => refusedBoth(lab, input, PathOutsideRootError, /through a link/),
      );
    }
  });
});

Deno.test("paths refuse a symlinked parent used to create a new file", async (t) => {
  await withLab(async (lab) => {
    await t.step("refuses creating through a link to a folder outside", async () => {
      await plant(lab.root, {}, { od: lab.outside, dd: join(lab.outside, "missing-dir") });
      await refusedBoth(lab, "od/new.txt", PathOutsideRootError);
      await refusedBoth(lab, "od/newdir/new.txt", PathOutsideRootError);
      await refusedBoth(lab, "dd/new.txt", PathOutsideRootError);
      assert.equal(await exists(join(lab.outside, "missing-dir")), false);
    });
    await t.step("ensureParent refuses a link planted after the check", async () => {
      const safe = await resolveForWrite(lab.root, "fresh/sub/new.txt");
      assert.equal(safe.exists, false);
      await Deno.symlink(lab.outside, join(lab.root, "fresh"));
      await refused(ensureParent(lab.root, safe), PathOutsideRootError, /fresh/);
      await assertUntouched(lab);
    });
    await t.step("ensureParent refuses a file in the way", async () => {
      await plant(lab.root, { plain: "p" });
      const safe = await resolveForWrite(lab.root, "plain/new.txt");
      await refused(ensureParent(lab.root, safe), PathError, /"plain" is not a folder/);
    });
    await t.step("ensureParent creates missing real folders", async () => {
      const safe = await resolveForWrite(lab.root, "n1/n2/n3/f.txt");
      await ensureParent(lab.root, safe);
      assert.ok((await Deno.lstat(join(lab.root, "n1/n2/n3"))).isDirectory);
    });
  });
});

// ── dangling links ────────────────────────────────────────────────────────────────────────────

Deno.test("paths refuse a dangling link that points outside", async (t) => {
  await withLab(async (lab) => {
    await plant(lab.root, {}, {
      dang: join(lab.outside, "missing.txt"),
      "dang-rel": "../outside/missing.txt",
      "dang-dir": join(lab.outside, "nodir/missing.txt"),
      "dang-chain": "dang",
    });
    for (const input of ["dang", "dang-rel", "dang-dir", "dang-chain", "dang-dir/x"]) {
      await t.step(`refuses ${input}`, async () => {
        await refusedBoth(lab, input, PathOutsideRootError, /through a link/);
        assert.equal(await exists(join(lab.outside, "missing.txt")), false);
        assert.equal(await exists(join(lab.outside, "nodir")), false);
      });
    }
    await t.step(
      "refuses a dangling link whose text climbs out through a linked folder",
      async () => {
        await Deno.mkdir(join(lab.outside, "keep-p"));
        await plant(lab.root, {}, { p: join(lab.outside, "keep-p"), dl: "p/../made.txt" });
        await refusedBoth(lab, "dl", PathOutsideRootError);
        assert.equal(await exists(join(lab.outside, "made.txt")), false);
      },
    );
    await t.step("refuses a dangling link that lives in a folder outside", async () => {
      await Deno.mkdir(join(lab.outside, "keep-q"));
      await Deno.symlink(join(lab.root, "target.txt"), join(lab.outside, "keep-q", "dl"));
      await plant(lab.root, {}, { q: join(lab.outside, "keep-q") });
      await refused(resolveForRead(lab.root, "q/dl"), PathOutsideRootError);
      await refused(resolveForWrite(lab.root, "q/dl"), PathOutsideRootError);
    });
    await t.step("writes through a dangling link inside to its target", async () => {
      await plant(lab.root, {}, { di: "made/here.txt" });
      const read = await resolveForRead(lab.root, "di");
      assert.deepEqual(read, {
        abs: join(lab.root, "made/here.txt"),
        rel: "made/here.txt",
        exists: false,
      });
      await writeVia(lab.root, "di", "made");
      assert.equal(await Deno.readTextFile(join(lab.root, "made/here.txt")), "made");
      assert.ok(await isLink(join(lab.root, "di")));
    });
  });
});

// ── a link planted after the check ────────────────────────────────────────────────────────────

Deno.test("atomic write replaces a link planted after the check instead of following it", async (t) => {
  await withLab(async (lab) => {
    await t.step("at a new file's name", async () => {
      const safe = await resolveForWrite(lab.root, "t.txt");
      await Deno.symlink(lab.secret, join(lab.root, "t.txt"));
      await writeFileAtomic(safe.abs, "new");
      await assertUntouched(lab);
      assert.ok((await Deno.lstat(join(lab.root, "t.txt"))).isFile);
      assert.equal(await Deno.readTextFile(join(lab.root, "t.txt")), "new");
    });
    await t.step("in place of an existing file", async () => {
      await plant(lab.root, { "e.txt": "old" });
      const safe = await resolveForWrite(lab.root, "e.txt");
      assert.equal(safe.exists, true);
      await Deno.remove(join(lab.root, "e.txt"));
      await Deno.symlink(lab.secret, join(lab.root, "e.txt"));
      await writeFileAtomic(safe.abs, "new");
      await assertUntouched(lab);
      assert.ok((await Deno.lstat(join(lab.root, "e.txt"))).isFile);
    });
    await t.step("pointing at a folder outside", async () => {
      const safe = await resolveForWrite(lab.root, "d.txt");
      await Deno.symlink(lab.outside, join(lab.root, "d.txt"));
      await writeFileAtomic(safe.abs, "new");
      await assertUntouched(lab);
      assert.equal(await Deno.readTextFile(join(lab.root, "d.txt")), "new");
    });
    await t.step("leaves no temporary file behind", async () => {
      const names = [];
      for await (const e of Deno.readDir(lab.root)) names.push(e.name);
      assert.deepEqual(names.sort(), ["d.txt", "e.txt", "t.txt"]);
    });
  });
});

// ── .git and .localexec ───────────────────────────────────────────────────────────────────────

Deno.test("paths refuse writes under .git and .localexec", async (t) => {
  await withLab(async (lab) => {
    await plant(
      lab.root,
      { ".git/config": "cfg", ".localexec/T1.log": "log", "a/.git/HEAD": "h" },
      {
        gl: ".git",
        hook: ".git/config",
        lx: ".localexec",
        "dang-hook": ".git/hooks/post-commit",
        "abs-git": join(lab.root, ".git"),
      },
    );
    for (
      const input of [
        ".git",
        ".git/",
        ".git/config",
        ".git/hooks/new",
        ".localexec",
        ".localexec/T1.log",
        ".localexec/new/x",
        "sub/../.git/x",
        "./.git/x",
        ".//.git//x",
        ".GIT/x",
        ".Git/config",
        ".LocalExec/x",
        "a/.git/HEAD",
        "deep/er/.git/x",
        join(lab.root, ".git/config"),
        "gl/config",
        "gl/new",
        "hook",
        "lx/x",
        "dang-hook",
        "abs-git/config",
      ]
    ) {
      await t.step(`refuses writing ${input.replace(lab.root, "<root>")}`, async () => {
        await refused(
          resolveForWrite(lab.root, input),
          ProtectedPathError,
          /\.(git|localexec)\/, which tools may not change/i,
        );
        await refused(writeVia(lab.root, input, "PWNED"), ProtectedPathError);
        assert.equal(await Deno.readTextFile(join(lab.root, ".git/config")), "cfg");
        assert.equal(await Deno.readTextFile(join(lab.root, ".localexec/T1.log")), "log");
      });
    }
    await t.step("allows reading them", async () => {
      assert.equal((await resolveForRead(lab.root, ".git/config")).exists, true);
      assert.equal((await resolveForRead(lab.root, "hook")).rel, ".git/config");
      assert.equal((await resolveForRead(lab.root, ".localexec/T1.log")).exists, true);
    });
    await t.step("allows names that merely start like them", async () => {
      for (
        const input of [
          ".gitignore",
          ".github/workflows/ci.yml",
          ".git-blame-ignore-revs",
          "git/x",
          ".gitx/y",
          "localexec/x",
          ".localexec.json",
        ]
      ) {
        assert.equal((await writeVia(lab.root, input, "ok")).rel, input);
      }
    });
    assert.equal(await exists(join(lab.root, ".git/hooks")), false);
    assert.equal(await exists(join(lab.root, "deep")), false);
  });
});

// ── links that stay inside ────────────────────────────────────────────────────────────────────

Deno.test("paths follow links that stay inside the root", async (t) => {
  await withLab(async (lab) => {
    await plant(lab.root, { "real/f.txt": "f" }, {
      in: "real",
      "alias.txt": "real/f.txt",
      abs: join(lab.root, "real"),
      a1: "a2",
      a2: "real/f.txt",
      around: "../outside/../proj/real/f.txt",
      od: lab.outside,
      kernel: "od/../proj/real/f.txt",
    });
    await t.step("resolves a linked folder to its real path", async () => {
      const read = await resolveForRead(lab.root, "in/f.txt");
      assert.deepEqual(read, {
        abs: join(lab.root, "real/f.txt"),
        rel: "real/f.txt",
        exists: true,
      });
      assert.equal((await resolveForRead(lab.root, "in")).rel, "real");
      assert.equal((await resolveForRead(lab.root, "abs/f.txt")).rel, "real/f.txt");
    });
    await t.step("resolves chains and detours that end inside", async () => {
      for (const input of ["alias.txt", "a1", "around", "kernel"]) {
        assert.equal((await resolveForRead(lab.root, input)).rel, "real/f.txt", input);
      }
    });
    await t.step("writes through a file link to the real target", async () => {
      await writeVia(lab.root, "alias.txt", "via alias");
      assert.equal(await Deno.readTextFile(join(lab.root, "real/f.txt")), "via alias");
      assert.ok(await isLink(join(lab.root, "alias.txt")));
    });
    await t.step("creates a new file through a linked folder", async () => {
      const safe = await writeVia(lab.root, "in/new.txt", "new");
      assert.equal(safe.rel, "real/new.txt");
      assert.equal(await Deno.readTextFile(join(lab.root, "real/new.txt")), "new");
    });
    await assertUntouched(lab);
  });
});

// ── loops ─────────────────────────────────────────────────────────────────────────────────────

Deno.test("paths refuse symlink loops with a clear error", async (t) => {
  await withLab(async (lab) => {
    await plant(lab.root, {}, {
      la: "lb",
      lb: "la",
      self: "self",
      dl: "loopdir/x",
      loopdir: "loopdir",
    });
    for (const input of ["la", "la/x", "self", "dl"]) {
      await t.step(`refuses ${input}`, async () => {
        await refused(
          resolveForRead(lab.root, input),
          PathError,
          /too many levels of symbolic links/,
        );
        await refused(
          resolveForWrite(lab.root, input),
          PathError,
          /too many levels of symbolic links/,
        );
      });
    }
  });
});

// ── the root named through a link ─────────────────────────────────────────────────────────────

Deno.test("paths accept absolute paths that name the root through a link", async (t) => {
  await withLab(async (lab) => {
    await Deno.symlink(lab.root, join(lab.base, "alias"));
    await Deno.symlink(lab.outside, join(lab.base, "alias-out"));
    await plant(lab.root, { "f.txt": "f", ".git/config": "cfg" });
    await t.step("reads and writes inside", async () => {
      const read = await resolveForRead(lab.root, join(lab.base, "alias/f.txt"));
      assert.deepEqual(read, { abs: join(lab.root, "f.txt"), rel: "f.txt", exists: true });
      const safe = await writeVia(lab.root, join(lab.base, "alias/new/n.txt"), "n");
      assert.equal(safe.rel, "new/n.txt");
    });
    await t.step("still refuses what lies outside", async () => {
      await refusedBoth(lab, join(lab.base, "alias/../outside/secret.txt"), PathOutsideRootError);
      await refusedBoth(lab, join(lab.base, "alias-out/secret.txt"), PathOutsideRootError);
      await refused(
        resolveForWrite(lab.root, join(lab.base, "alias/.git/config")),
        ProtectedPathError,
      );
    });
  });
});

// ── writeFileAtomic ───────────────────────────────────────────────────────────────────────────

Deno.test("writeFileAtomic keeps modes, sets new ones and cleans up", async (t) => {
  await withLab(async (lab) => {
    const file = join(lab.root, "run.sh");
    await t.step("gives a new file 0o644 whatever the umask", async () => {
      const old = Deno.umask(0o077);
      try {
        assert.equal(await writeFileAtomic(file, "#!/bin/sh\n"), 0o644);
      } finally {
        Deno.umask(old);
      }
      assert.equal((await Deno.stat(file)).mode! & 0o7777, 0o644);
    });
    await t.step("keeps an existing file's mode", async () => {
      await Deno.chmod(file, 0o750);
      await writeFileAtomic(file, new TextEncoder().encode("echo hi\n"));
      assert.equal((await Deno.stat(file)).mode! & 0o7777, 0o750);
      assert.equal(await Deno.readTextFile(file), "echo hi\n");
    });
    await t.step("sets an explicit mode", async () => {
      await writeFileAtomic(file, "x", { mode: 0o600 });
      assert.equal((await Deno.stat(file)).mode! & 0o7777, 0o600);
    });
    await t.step("writes names of 252 bytes in a multibyte script", async () => {
      const name = "日".repeat(84); // 3 bytes each: 252 bytes, under the 255-byte limit
      await writeFileAtomic(join(lab.root, name), "long");
      assert.equal(await Deno.readTextFile(join(lab.root, name)), "long");
    });
    await t.step("fails onto a folder and leaves no temporary file", async () => {
      await Deno.mkdir(join(lab.root, "dir"));
      await assert.rejects(writeFileAtomic(join(lab.root, "dir"), "x"));
      const names = [];
      for await (const e of Deno.readDir(lab.root)) names.push(e.name);
      assert.deepEqual(names.filter((n) => n.includes("localexec-tmp")), []);
    });
  });
});
