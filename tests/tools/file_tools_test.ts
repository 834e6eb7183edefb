/**
 * Handler tests for the four file tools (list_files, read_file, write_file, patch_file) through
 * the result boundary, on real temp folders; plus one end-to-end pass over stdio.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { callTool } from "../../lib/mcp/boundary.ts";
import type { ToolContext } from "../../lib/mcp/tool.ts";
import listFiles from "../../tools/list_files.ts";
import readFile from "../../tools/read_file.ts";
import writeFile from "../../tools/write_file.ts";
import patchFile from "../../tools/patch_file.ts";
import { callJson, tempProject, testContext } from "../helpers/project.ts";
import { callMcp, connect } from "../helpers/mcp.ts";

/** A project, its context, and cleanup. */
async function withProject(
  files: Record<string, string | Uint8Array>,
  fn: (root: string, ctx: ToolContext) => Promise<void>,
): Promise<void> {
  const root = await tempProject(files);
  try {
    await fn(root, testContext(root));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function read(ctx: ToolContext, args: Record<string, unknown>) {
  return callJson(readFile, args, ctx);
}

function patch(ctx: ToolContext, args: Record<string, unknown>) {
  return callJson(patchFile, args, ctx);
}

/** Reads `file` with line numbers (the precondition of patch_file). */
async function show(ctx: ToolContext, file: string): Promise<void> {
  const r = await read(ctx, { filename: file, line_numbers: true });
  assert.equal(r.status, "ok", JSON.stringify(r));
}

function modeOf(path: string): number {
  return Deno.statSync(path).mode! & 0o7777;
}

function assertError(r: Record<string, unknown>, pattern: RegExp): void {
  assert.equal(r.status, "error", JSON.stringify(r));
  assert.equal(r.escalate, false);
  assert.match(String(r.error), pattern);
}

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** A real 1×1 PNG. */
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);
/** Binary bytes with a NUL, standing in for media whose decoder we do not need. */
const BIN = new Uint8Array([
  0x49,
  0x44,
  0x33,
  0x04,
  0x00,
  0x00,
  0x00,
  0x00,
  0xff,
  0xfb,
  0x90,
  0x00,
]);

// ── list_files ────────────────────────────────────────────────────────────────────────────────

Deno.test("list_files shows permissions, size, time and name with folders first", async () => {
  await withProject(
    { "b.txt": "hello", "a/x.txt": "x", "z/y": "y", "c.sh": "#!/bin/sh\n" },
    async (root, ctx) => {
      await Deno.chmod(join(root, "b.txt"), 0o640);
      await Deno.chmod(join(root, "c.sh"), 0o755);
      await Deno.chmod(join(root, "a"), 0o755);
      await Deno.symlink("b.txt", join(root, "ln"));
      await Deno.symlink("a", join(root, "dl"));
      const r = await callJson(listFiles, {}, ctx);
      assert.equal(r.status, "ok");
      assert.equal(r.directory, ".");
      assert.equal(r.total, 6);
      const entries = r.entries as string[];
      const names = entries.map((e) => e.split(/\s+/).slice(4).join(" "));
      assert.deepEqual(names, ["a/", "dl/ -> a", "z/", "b.txt", "c.sh", "ln -> b.txt"]);
      assert.match(entries[0], /^drwxr-xr-x +\d+ {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}a\/$/);
      assert.match(entries[3], /^-rw-r----- +5 {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}b\.txt$/);
      assert.match(entries[4], /^-rwxr-xr-x +10 /);
      assert.match(entries[5], /^lrwxrwxrwx /);
      assert.match(entries[1], /^lrwxrwxrwx /);
    },
  );
});

Deno.test("list_files lists a subfolder and caps long listings", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 205; i++) files[`many/f${String(i).padStart(3, "0")}.txt`] = "";
  await withProject(files, async (_root, ctx) => {
    const r = await callJson(listFiles, { directory: "many" }, ctx);
    assert.equal(r.directory, "many");
    assert.equal(r.total, 205);
    assert.equal((r.entries as string[]).length, 200);
    assert.match(String(r.note), /showing 200 of 205/);
  });
});

Deno.test("list_files refuses files, missing folders and paths outside", async () => {
  await withProject({ "f.txt": "f" }, async (root, ctx) => {
    await Deno.symlink("/tmp", join(root, "out"));
    assertError(
      await callJson(listFiles, { directory: "f.txt" }, ctx),
      /is a file, not a folder; use read_file/,
    );
    assertError(await callJson(listFiles, { directory: "nope" }, ctx), /does not exist/);
    assertError(await callJson(listFiles, { directory: ".." }, ctx), /escapes the project root/);
    assertError(await callJson(listFiles, { directory: "/etc" }, ctx), /outside the project root/);
    assertError(await callJson(listFiles, { directory: "out" }, ctx), /outside the project root/);
  });
});

// ── read_file: text ───────────────────────────────────────────────────────────────────────────

Deno.test("read_file returns a whole text file with its line count", async () => {
  await withProject({ "a.txt": "one\ntwo\nthree\n", "nonl.txt": "x\ny" }, async (_root, ctx) => {
    const r = await read(ctx, { filename: "a.txt" });
    assert.deepEqual(r, {
      status: "ok",
      path: "a.txt",
      total_lines: 3,
      start_line: 1,
      end_line: 3,
      content: "one\ntwo\nthree\n",
    });
    const n = await read(ctx, { filename: "nonl.txt" });
    assert.equal(n.total_lines, 2);
    assert.equal(n.content, "x\ny");
  });
});

Deno.test("read_file returns inclusive 1-based ranges, numbered on request", async () => {
  await withProject({ "a.txt": "l1\nl2\nl3\nl4\nl5\n" }, async (_root, ctx) => {
    const r = await read(ctx, { filename: "a.txt", start_line: 2, end_line: 3 });
    assert.equal(r.content, "l2\nl3\n");
    assert.equal(r.start_line, 2);
    assert.equal(r.end_line, 3);
    assert.equal(r.total_lines, 5);
    const n = await read(ctx, { filename: "a.txt", start_line: 4, line_numbers: true });
    assert.equal(n.content, "4\tl4\n5\tl5\n");
    const all = await read(ctx, { filename: "a.txt", line_numbers: true, end_line: 2 });
    assert.equal(all.content, "1\tl1\n2\tl2\n");
    const one = await read(ctx, { filename: "a.txt", start_line: 5, end_line: 5 });
    assert.equal(one.content, "l5\n");
    const clamp = await read(ctx, { filename: "a.txt", start_line: 4, end_line: 99 });
    assert.equal(clamp.content, "l4\nl5\n");
    assert.equal(clamp.end_line, 5);
    const nulls = await read(ctx, { filename: "a.txt", start_line: null, end_line: null });
    assert.equal(nulls.end_line, 5);
  });
});

Deno.test("read_file refuses bad ranges with the line count", async () => {
  await withProject({ "a.txt": "a\nb\nc\n", "empty.txt": "" }, async (_root, ctx) => {
    assertError(
      await read(ctx, { filename: "a.txt", start_line: 4 }),
      /start_line 4 is beyond the end: "a.txt" has 3 lines/,
    );
    assertError(
      await read(ctx, { filename: "a.txt", start_line: 3, end_line: 2 }),
      /end_line 2 is before start_line 3/,
    );
    assertError(await read(ctx, { filename: "a.txt", start_line: 0 }), /start_line/);
    const e = await read(ctx, { filename: "empty.txt" });
    assert.equal(e.status, "ok");
    assert.equal(e.content, "");
    assert.equal(e.total_lines, 0);
    assert.match(String(e.note), /empty/);
    assertError(await read(ctx, { filename: "empty.txt", start_line: 2 }), /is empty/);
  });
});

Deno.test("read_file cuts at max_chars on whole lines and says how to read on", async () => {
  const text = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  await withProject(
    { "big.txt": text, "long.txt": "x".repeat(500) + "\nshort\n" },
    async (_root, ctx) => {
      const r = await read(ctx, { filename: "big.txt", max_chars: 50 });
      assert.equal(r.truncated, true);
      assert.equal(r.content, "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\n");
      assert.equal(r.end_line, 7);
      assert.match(String(r.note), /showing lines 1-7 of 100.*call again with start_line=8/);
      // Following the note reads on from where it stopped, numbers included in the count.
      let next = 8;
      let seen = String(r.content);
      while (next <= 100) {
        const more = await read(ctx, {
          filename: "big.txt",
          max_chars: 200,
          start_line: next,
          line_numbers: true,
        });
        assert.ok(String(more.content).length <= 200);
        seen += String(more.content).replace(/^\d+\t/gm, "");
        next = Number(more.end_line) + 1;
      }
      assert.equal(seen, text);
      const cut = await read(ctx, { filename: "long.txt", max_chars: 100 });
      assert.equal(cut.content, "x".repeat(100));
      assert.equal(cut.truncated, true);
      assert.equal(cut.end_line, 1);
      assert.match(
        String(cut.note),
        /line 1 is 500 characters long.*larger max_chars, or start_line=2/,
      );
      const full = await read(ctx, { filename: "big.txt", max_chars: 2_000 });
      assert.equal(full.truncated, undefined);
    },
  );
});

Deno.test("read_file keeps CRLF line endings and says so", async () => {
  await withProject(
    { "w.txt": "a\r\nb\r\nc\r\n", "mix.txt": "a\r\nb\nc\n" },
    async (_root, ctx) => {
      const r = await read(ctx, { filename: "w.txt", line_numbers: true });
      assert.equal(r.content, "1\ta\r\n2\tb\r\n3\tc\r\n");
      assert.equal(r.total_lines, 3);
      assert.equal(r.line_endings, "crlf");
      const part = await read(ctx, { filename: "w.txt", start_line: 2, end_line: 2 });
      assert.equal(part.content, "b\r\n");
      assert.equal((await read(ctx, { filename: "mix.txt" })).line_endings, "mixed");
    },
  );
});

Deno.test("read_file refuses folders, missing files and paths outside", async () => {
  await withProject({ "d/f.txt": "f" }, async (root, ctx) => {
    await Deno.symlink("/etc/hostname", join(root, "leak"));
    assertError(await read(ctx, { filename: "d" }), /"d" is a folder; use list_files/);
    assertError(await read(ctx, { filename: "." }), /is a folder; use list_files/);
    assertError(await read(ctx, { filename: "nope.txt" }), /"nope.txt" does not exist/);
    assertError(await read(ctx, { filename: "../x" }), /escapes the project root/);
    assertError(await read(ctx, { filename: "/etc/passwd" }), /outside the project root/);
    assertError(await read(ctx, { filename: "leak" }), /outside the project root/);
    assertError(await read(ctx, { filename: "a\0b" }), /NUL byte/);
    // A FIFO would block a reader forever: refused before opening.
    const made = await new Deno.Command("mkfifo", { args: [join(root, "pipe")] }).output();
    assert.ok(made.success);
    assertError(await read(ctx, { filename: "pipe" }), /"pipe" is not a regular file/);
  });
});

Deno.test("read_file marks a file as shown only when numbered", async () => {
  await withProject({ "a.txt": "a\nb\n" }, async (root, ctx) => {
    await read(ctx, { filename: "a.txt" });
    assert.equal(ctx.state.shown.has(join(root, "a.txt")), false);
    await read(ctx, { filename: "a.txt", line_numbers: true, start_line: 2 });
    assert.match(String(ctx.state.shown.get(join(root, "a.txt"))), /^4:[0-9a-f]{64}$/);
  });
});

// ── read_file: media and binaries ─────────────────────────────────────────────────────────────

Deno.test("read_file returns images and audio as content blocks after a JSON summary", async () => {
  const cases: [string, Uint8Array, string, string][] = [
    ["pic.png", PNG, "image", "image/png"],
    ["pic.JPG", BIN, "image", "image/jpeg"],
    ["pic.jpeg", BIN, "image", "image/jpeg"],
    ["pic.gif", BIN, "image", "image/gif"],
    ["pic.webp", BIN, "image", "image/webp"],
    ["a.mp3", BIN, "audio", "audio/mpeg"],
    ["a.wav", BIN, "audio", "audio/wav"],
    ["a.ogg", BIN, "audio", "audio/ogg"],
    ["a.flac", BIN, "audio", "audio/flac"],
    ["a.m4a", BIN, "audio", "audio/mp4"],
    ["a.opus", BIN, "audio", "audio/opus"],
  ];
  await withProject(Object.fromEntries(cases.map(([n, b]) => [n, b])), async (_root, ctx) => {
    for (const [name, bytes, kind, mimeType] of cases) {
      const result = await callTool(readFile, { filename: name }, ctx);
      assert.equal(result.isError, undefined, name);
      assert.equal(result.content.length, 2, name);
      const [summary, block] = result.content;
      assert.equal(summary.type, "text");
      assert.deepEqual(JSON.parse((summary as { text: string }).text), {
        status: "ok",
        path: name,
        kind,
        mime_type: mimeType,
        bytes: bytes.length,
      });
      assert.deepEqual(block, { type: kind, data: b64(bytes), mimeType });
    }
  });
});

Deno.test("read_file returns video as an embedded resource", async () => {
  await withProject({ "clip.mp4": BIN, "sub dir/c.webm": BIN, "m.mov": BIN }, async (root, ctx) => {
    const result = await callTool(readFile, { filename: "sub dir/c.webm" }, ctx);
    const summary = JSON.parse((result.content[0] as { text: string }).text);
    assert.equal(summary.kind, "video");
    assert.equal(summary.mime_type, "video/webm");
    assert.deepEqual(result.content[1], {
      type: "resource",
      resource: {
        uri: `file://${root.split("/").map(encodeURIComponent).join("/")}/sub%20dir/c.webm`,
        mimeType: "video/webm",
        blob: b64(BIN),
      },
    });
    const mp4 = await callTool(readFile, { filename: "clip.mp4" }, ctx);
    assert.equal(
      (mp4.content[1] as { resource: { mimeType: string } }).resource.mimeType,
      "video/mp4",
    );
    const mov = await callTool(readFile, { filename: "m.mov" }, ctx);
    assert.equal(
      (mov.content[1] as { resource: { mimeType: string } }).resource.mimeType,
      "video/quicktime",
    );
  });
});

Deno.test("read_file refuses media over 7 MB", async () => {
  const big = new Uint8Array(7 * 1024 * 1024 + 1);
  await withProject({ "huge.png": big, "huge.mp4": big }, async (_root, ctx) => {
    assertError(
      await read(ctx, { filename: "huge.png" }),
      /"huge.png" is 7340033 bytes; read_file returns image files up to 7 MB/,
    );
    assertError(await read(ctx, { filename: "huge.mp4" }), /video files up to 7 MB/);
  });
});

Deno.test("read_file shows other binaries as capped hex", async () => {
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  const large = new Uint8Array(10_000).fill(0x41);
  large[0] = 0;
  await withProject({
    "all.bin": all,
    "large.dat": large,
    "bad.txt": new Uint8Array([0x61, 0xff, 0xfe, 0x62]),
  }, async (_root, ctx) => {
    const r = await read(ctx, { filename: "all.bin" });
    assert.equal(r.status, "ok");
    assert.equal(r.kind, "binary");
    assert.equal(r.bytes, 256);
    assert.equal(r.shown_bytes, 256);
    assert.equal(r.truncated, undefined);
    const lines = String(r.hex).split("\n");
    assert.equal(lines.length, 16);
    assert.equal(lines[0], "00000000: 0001 0203 0405 0607 0809 0a0b 0c0d 0e0f  ................");
    assert.equal(lines[4], "00000040: 4041 4243 4445 4647 4849 4a4b 4c4d 4e4f  @ABCDEFGHIJKLMNO");
    const l = await read(ctx, { filename: "large.dat" });
    assert.equal(l.shown_bytes, 4096);
    assert.equal(l.truncated, true);
    assert.match(String(l.note), /first 4096 of 10000 bytes/);
    const small = await read(ctx, { filename: "large.dat", max_chars: 700 });
    assert.equal(small.shown_bytes, 160);
    assert.ok(String(small.hex).length <= 700);
    const bad = await read(ctx, { filename: "bad.txt" });
    assert.equal(bad.kind, "binary");
    assert.ok(String(bad.hex).startsWith("00000000: 61ff fe62 "));
    assert.ok(String(bad.hex).endsWith(" a..b"));
  });
});

Deno.test("read_file refuses text over 64 MB and shows huge binaries from their head", async () => {
  await withProject({ "huge.log": "x".repeat(9000) + "\n", "huge.bin": "" }, async (root, ctx) => {
    // Sparse files: the size is real, the disk cost is not.
    await Deno.truncate(join(root, "huge.log"), 65 * 1024 * 1024);
    await Deno.truncate(join(root, "huge.bin"), 65 * 1024 * 1024);
    assertError(
      await read(ctx, { filename: "huge.log" }),
      /"huge.log" is 65\.0 MB, over read_file's 64\.0 MB limit; use shell/,
    );
    const bin = await read(ctx, { filename: "huge.bin" });
    assert.equal(bin.kind, "binary");
    assert.equal(bin.bytes, 65 * 1024 * 1024);
    assert.equal(bin.shown_bytes, 4096);
    assert.equal(bin.truncated, true);
  });
});

Deno.test("read_file refuses binaries without binary_as_hex", async () => {
  await withProject(
    { "x.bin": BIN, "pic.png": PNG, "fake.png": "just text\n" },
    async (_root, ctx) => {
      assertError(
        await read(ctx, { filename: "x.bin", binary_as_hex: false }),
        /binary file \(12 bytes\); call again with binary_as_hex=true/,
      );
      // Media are not "other binaries": they still come back as blocks.
      const png = await callTool(readFile, { filename: "pic.png", binary_as_hex: false }, ctx);
      assert.equal(png.content[1].type, "image");
      // The content decides text or binary; a text file named .png is text.
      assert.equal((await read(ctx, { filename: "fake.png" })).content, "just text\n");
    },
  );
});

// ── write_file ────────────────────────────────────────────────────────────────────────────────

Deno.test("write_file creates files and parents and reports bytes and lines", async () => {
  await withProject({}, async (root, ctx) => {
    const r = await callJson(
      writeFile,
      { file_path: "src/deep/é.txt", content: "héllo\nworld\n" },
      ctx,
    );
    assert.deepEqual(r, {
      status: "ok",
      path: "src/deep/é.txt",
      bytes: 13,
      lines: 2,
      created: true,
    });
    assert.equal(await Deno.readTextFile(join(root, "src/deep/é.txt")), "héllo\nworld\n");
    assert.equal(modeOf(join(root, "src/deep/é.txt")), 0o644);
    const again = await callJson(writeFile, { file_path: "src/deep/é.txt", content: "x" }, ctx);
    assert.equal(again.created, false);
    assert.equal(again.lines, 1);
    const empty = await callJson(writeFile, { file_path: "e.txt", content: "" }, ctx);
    assert.equal(empty.lines, 0);
    assert.equal(empty.bytes, 0);
  });
});

Deno.test("write_file keeps an existing mode and applies an explicit one", async () => {
  await withProject({ "run.sh": "old" }, async (root, ctx) => {
    await Deno.chmod(join(root, "run.sh"), 0o755);
    await callJson(writeFile, { file_path: "run.sh", content: "#!/bin/sh\n" }, ctx);
    assert.equal(modeOf(join(root, "run.sh")), 0o755);
    await callJson(writeFile, { file_path: "run.sh", content: "#!/bin/sh\n", mode: 0o700 }, ctx);
    assert.equal(modeOf(join(root, "run.sh")), 0o700);
    await callJson(writeFile, { file_path: "new.sh", content: "x", mode: 0o750 }, ctx);
    assert.equal(modeOf(join(root, "new.sh")), 0o750);
    assertError(
      await callJson(writeFile, { file_path: "m", content: "x", mode: 0o10000 }, ctx),
      /mode/,
    );
  });
});

Deno.test("write_file refuses folders, protected and outside paths", async () => {
  await withProject({ "d/f.txt": "f", ".git/config": "cfg" }, async (root, ctx) => {
    const w = (file_path: string) => callJson(writeFile, { file_path, content: "x" }, ctx);
    assertError(await w("d"), /"d" is a folder/);
    assertError(await w("d/"), /"d" is a folder/);
    assertError(await w("d/f.txt/"), /ends with a slash/);
    assertError(await w("new/"), /ends with a slash/);
    assertError(await w("."), /project root itself/);
    assertError(await w(".git/config"), /under \.git\//);
    assertError(await w(".localexec/x"), /under \.localexec\//);
    assertError(await w("../x"), /escapes the project root/);
    assertError(await w("/tmp/x"), /outside the project root/);
    assert.equal(await Deno.readTextFile(join(root, ".git/config")), "cfg");
    assert.equal(await Deno.readTextFile(join(root, "d/f.txt")), "f");
  });
});

Deno.test("write_file writes through a link inside to its target", async () => {
  await withProject({ "real.txt": "old" }, async (root, ctx) => {
    await Deno.symlink("real.txt", join(root, "alias.txt"));
    const r = await callJson(writeFile, { file_path: "alias.txt", content: "new" }, ctx);
    assert.equal(r.path, "real.txt");
    assert.equal(r.created, false);
    assert.equal(await Deno.readTextFile(join(root, "real.txt")), "new");
    assert.ok(Deno.lstatSync(join(root, "alias.txt")).isSymlink);
  });
});

// ── patch_file ────────────────────────────────────────────────────────────────────────────────

Deno.test("patch_file refuses a file never read with line numbers", async () => {
  await withProject({ "a.txt": "a\nb\n" }, async (root, ctx) => {
    const args = { file_path: "a.txt", from_line: 1, to_line: 1, content: "A" };
    assertError(
      await patch(ctx, args),
      /"a.txt" has not been read with line numbers.*line_numbers=true/,
    );
    await read(ctx, { filename: "a.txt" }); // plain read: not enough
    assertError(await patch(ctx, args), /has not been read with line numbers/);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "a\nb\n");
  });
});

Deno.test("patch_file replaces an inclusive range and reports the new lines", async () => {
  await withProject({ "a.txt": "l1\nl2\nl3\nl4\n" }, async (root, ctx) => {
    await show(ctx, "a.txt");
    const r = await patch(ctx, {
      file_path: "a.txt",
      from_line: 2,
      to_line: 3,
      content: "X\nY\nZ\n",
    });
    assert.equal(r.status, "ok");
    assert.equal(r.path, "a.txt");
    assert.equal(r.lines, 5);
    assert.equal(r.changed, "2-4");
    assert.equal(r.added, 3);
    assert.equal(r.removed, 2);
    assert.match(String(r.note), /old lines from 4 on moved by \+1; read the file again/);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "l1\nX\nY\nZ\nl4\n");
  });
});

Deno.test("patch_file allows one patch per read", async () => {
  await withProject({ "a.txt": "a\nb\nc\n" }, async (root, ctx) => {
    await show(ctx, "a.txt");
    assert.equal(
      (await patch(ctx, { file_path: "a.txt", from_line: 1, to_line: 1, content: "A" })).status,
      "ok",
    );
    assertError(
      await patch(ctx, { file_path: "a.txt", from_line: 2, to_line: 2, content: "B" }),
      /one patch per read/,
    );
    await show(ctx, "a.txt");
    assert.equal(
      (await patch(ctx, { file_path: "a.txt", from_line: 2, to_line: 2, content: "B" })).status,
      "ok",
    );
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "A\nB\nc\n");
  });
});

Deno.test("patch_file allows one of two concurrent patches", async () => {
  await withProject({ "a.txt": "a\nb\nc\n" }, async (root, ctx) => {
    await show(ctx, "a.txt");
    const results = await Promise.all([
      patch(ctx, { file_path: "a.txt", from_line: 1, to_line: 1, content: "A" }),
      patch(ctx, { file_path: "a.txt", from_line: 3, to_line: 3, content: "C" }),
    ]);
    assert.deepEqual(results.map((r) => r.status).sort(), ["error", "ok"]);
    const text = await Deno.readTextFile(join(root, "a.txt"));
    assert.ok(text === "A\nb\nc\n" || text === "a\nb\nC\n", text);
  });
});

Deno.test("patch_file refuses a file changed since it was read", async () => {
  await withProject({ "a.txt": "a\nb\n" }, async (root, ctx) => {
    await show(ctx, "a.txt");
    await Deno.writeTextFile(join(root, "a.txt"), "inserted\na\nb\n");
    const args = { file_path: "a.txt", from_line: 1, to_line: 1, content: "A" };
    assertError(await patch(ctx, args), /"a.txt" changed since it was read with line numbers/);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "inserted\na\nb\n");
    // Touching without changing content keeps the read valid.
    await show(ctx, "a.txt");
    await Deno.utime(join(root, "a.txt"), new Date(2001, 1, 1), new Date(2001, 1, 1));
    assert.equal((await patch(ctx, args)).status, "ok");
  });
});

Deno.test("patch_file refuses after write_file changed the file", async () => {
  await withProject({ "a.txt": "a\nb\n" }, async (_root, ctx) => {
    await show(ctx, "a.txt");
    await callJson(writeFile, { file_path: "a.txt", content: "a\nb\n" }, ctx);
    assertError(
      await patch(ctx, { file_path: "a.txt", from_line: 1, to_line: 1, content: "A" }),
      /has not been read/,
    );
  });
});

Deno.test("patch_file inserts, appends and deletes", async () => {
  await withProject({ "a.txt": "a\nb\nc\n", "e.txt": "" }, async (root, ctx) => {
    const file = join(root, "a.txt");
    await show(ctx, "a.txt");
    const ins = await patch(ctx, {
      file_path: "a.txt",
      from_line: 2,
      to_line: 1,
      content: "new1\nnew2",
    });
    assert.equal(ins.changed, "2-3");
    assert.equal(ins.removed, 0);
    assert.equal(await Deno.readTextFile(file), "a\nnew1\nnew2\nb\nc\n");
    await show(ctx, "a.txt");
    const top = await patch(ctx, {
      file_path: "a.txt",
      from_line: 1,
      to_line: 0,
      content: "top\n",
    });
    assert.equal(top.changed, "1-1");
    await show(ctx, "a.txt");
    const app = await patch(ctx, {
      file_path: "a.txt",
      from_line: 7,
      to_line: 6,
      content: "end\n",
    });
    assert.equal(app.lines, 7);
    assert.equal(app.changed, "7-7");
    assert.equal(await Deno.readTextFile(file), "top\na\nnew1\nnew2\nb\nc\nend\n");
    await show(ctx, "a.txt");
    const del = await patch(ctx, { file_path: "a.txt", from_line: 3, to_line: 4, content: "" });
    assert.equal(del.changed, "");
    assert.equal(del.lines, 5);
    assert.match(String(del.note), /deleted lines 3-4/);
    assert.equal(await Deno.readTextFile(file), "top\na\nb\nc\nend\n");
    await show(ctx, "e.txt");
    const first = await patch(ctx, {
      file_path: "e.txt",
      from_line: 1,
      to_line: 0,
      content: "first",
    });
    assert.equal(first.lines, 1);
    assert.equal(await Deno.readTextFile(join(root, "e.txt")), "first\n");
  });
});

Deno.test("patch_file refuses ranges outside the file and keeps the read mark", async () => {
  await withProject({ "a.txt": "a\nb\nc\n" }, async (_root, ctx) => {
    await show(ctx, "a.txt");
    const p = (from_line: number, to_line: number, content = "x") =>
      patch(ctx, { file_path: "a.txt", from_line, to_line, content });
    assertError(
      await p(5, 5),
      /from_line 5 is beyond the end: "a.txt" has 3 lines \(to append, use from_line=4 and to_line=3\)/,
    );
    assertError(await p(2, 4), /to_line 4 is beyond the end: "a.txt" has 3 lines/);
    assertError(
      await p(3, 1),
      /to_line 1 is before from_line 3; to insert before line 3 without deleting, use to_line=2/,
    );
    assertError(await p(2, 1, ""), /nothing to change/);
    assertError(await p(0, 1), /from_line/);
    assert.equal((await p(2, 2, "B")).status, "ok");
  });
});

Deno.test("patch_file keeps CRLF endings and the final newline state", async () => {
  await withProject(
    { "w.txt": "a\r\nb\r\nc\r\n", "nonl.txt": "a\nb", "crnonl.txt": "a\r\nb" },
    async (root, ctx) => {
      await show(ctx, "w.txt");
      await patch(ctx, { file_path: "w.txt", from_line: 2, to_line: 2, content: "B1\nB2\r\n" });
      assert.equal(await Deno.readTextFile(join(root, "w.txt")), "a\r\nB1\r\nB2\r\nc\r\n");
      await show(ctx, "w.txt");
      await patch(ctx, { file_path: "w.txt", from_line: 5, to_line: 4, content: "d" });
      assert.equal(await Deno.readTextFile(join(root, "w.txt")), "a\r\nB1\r\nB2\r\nc\r\nd\r\n");

      await show(ctx, "nonl.txt");
      await patch(ctx, { file_path: "nonl.txt", from_line: 2, to_line: 2, content: "B\n" });
      assert.equal(await Deno.readTextFile(join(root, "nonl.txt")), "a\nB");
      await show(ctx, "nonl.txt");
      await patch(ctx, { file_path: "nonl.txt", from_line: 3, to_line: 2, content: "c" });
      assert.equal(await Deno.readTextFile(join(root, "nonl.txt")), "a\nB\nc");
      await show(ctx, "nonl.txt");
      await patch(ctx, { file_path: "nonl.txt", from_line: 3, to_line: 3, content: "" });
      assert.equal(await Deno.readTextFile(join(root, "nonl.txt")), "a\nB");

      await show(ctx, "crnonl.txt");
      await patch(ctx, { file_path: "crnonl.txt", from_line: 3, to_line: 2, content: "c\n" });
      assert.equal(await Deno.readTextFile(join(root, "crnonl.txt")), "a\r\nb\r\nc");
    },
  );
});

Deno.test("patch_file treats one trailing newline in content as optional", async () => {
  await withProject({ "a.txt": "a\nb\nc\n" }, async (root, ctx) => {
    const file = join(root, "a.txt");
    for (
      const [content, expected] of [
        ["B", "a\nB\nc\n"],
        ["B\n", "a\nB\nc\n"],
        ["B\n\n", "a\nB\n\nc\n"],
        ["\n", "a\n\nc\n"],
      ]
    ) {
      await Deno.writeTextFile(file, "a\nb\nc\n");
      await show(ctx, "a.txt");
      assert.equal(
        (await patch(ctx, { file_path: "a.txt", from_line: 2, to_line: 2, content })).status,
        "ok",
      );
      assert.equal(await Deno.readTextFile(file), expected, JSON.stringify(content));
    }
  });
});

Deno.test("patch_file keeps the mode unless told and keeps a BOM", async () => {
  await withProject(
    { "run.sh": "#!/bin/sh\necho a\n", "bom.txt": "\uFEFFfirst\nsecond\n" },
    async (root, ctx) => {
      await Deno.chmod(join(root, "run.sh"), 0o755);
      await show(ctx, "run.sh");
      await patch(ctx, { file_path: "run.sh", from_line: 2, to_line: 2, content: "echo b" });
      assert.equal(modeOf(join(root, "run.sh")), 0o755);
      await show(ctx, "run.sh");
      await patch(ctx, {
        file_path: "run.sh",
        from_line: 2,
        to_line: 2,
        content: "echo c",
        mode: 0o700,
      });
      assert.equal(modeOf(join(root, "run.sh")), 0o700);
      assert.equal(await Deno.readTextFile(join(root, "run.sh")), "#!/bin/sh\necho c\n");
      await show(ctx, "bom.txt");
      await patch(ctx, { file_path: "bom.txt", from_line: 1, to_line: 1, content: "\uFEFFFIRST" });
      const raw = new TextDecoder("utf-8", { ignoreBOM: true }).decode(
        Deno.readFileSync(join(root, "bom.txt")),
      );
      assert.equal(raw, "\uFEFFFIRST\nsecond\n");
    },
  );
});

Deno.test("patch_file follows links and refuses missing, folder and protected paths", async () => {
  await withProject(
    { "real.txt": "a\nb\n", "d/x": "x", ".git/config": "cfg\n" },
    async (root, ctx) => {
      await Deno.symlink("real.txt", join(root, "alias.txt"));
      await show(ctx, "alias.txt");
      const r = await patch(ctx, { file_path: "real.txt", from_line: 1, to_line: 1, content: "A" });
      assert.equal(r.status, "ok");
      assert.equal(await Deno.readTextFile(join(root, "real.txt")), "A\nb\n");
      const p = (file_path: string) =>
        patch(ctx, { file_path, from_line: 1, to_line: 1, content: "z" });
      assertError(await p("nope.txt"), /does not exist; use write_file/);
      assertError(await p("d"), /"d" is a folder/);
      await read(ctx, { filename: ".git/config", line_numbers: true });
      assertError(await p(".git/config"), /under \.git\//);
      assertError(await p("../x"), /escapes the project root/);
    },
  );
});

Deno.test("patch_file accepts a read of a range as the precondition", async () => {
  await withProject({ "a.txt": "a\nb\nc\nd\n" }, async (root, ctx) => {
    assert.equal(
      (await read(ctx, { filename: "a.txt", line_numbers: true, start_line: 3, end_line: 4 }))
        .content,
      "3\tc\n4\td\n",
    );
    assert.equal(
      (await patch(ctx, { file_path: "a.txt", from_line: 3, to_line: 3, content: "C" })).status,
      "ok",
    );
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "a\nb\nC\nd\n");
  });
});

// ── over stdio ────────────────────────────────────────────────────────────────────────────────

Deno.test("file tools work end to end over stdio with valid structured results", async () => {
  const root = await tempProject({
    "a.txt": "one\ntwo\n",
    "pic.png": PNG,
    "clip.mp4": BIN,
    "a.mp3": BIN,
  });
  const conn = await connect(root);
  try {
    const call = (name: string, args: Record<string, unknown>) =>
      conn.client.callTool({ name, arguments: args });
    const text = await call("read_file", { filename: "a.txt", line_numbers: true });
    assert.deepEqual(text.structuredContent, {
      status: "ok",
      path: "a.txt",
      total_lines: 2,
      start_line: 1,
      end_line: 2,
      content: "1\tone\n2\ttwo\n",
    });
    const patched = await call("patch_file", {
      file_path: "a.txt",
      from_line: 3,
      to_line: 2,
      content: "three",
    });
    assert.equal((patched.structuredContent as Record<string, unknown>).changed, "3-3");
    const again = await call("patch_file", {
      file_path: "a.txt",
      from_line: 1,
      to_line: 1,
      content: "x",
    });
    assert.equal(again.isError, true);
    const img = await call("read_file", { filename: "pic.png" });
    assert.equal((img.content as { type: string }[])[1].type, "image");
    const audio = await call("read_file", { filename: "a.mp3" });
    assert.equal((audio.content as { type: string }[])[1].type, "audio");
    const video = await call("read_file", { filename: "clip.mp4" });
    assert.equal((video.content as { type: string }[])[1].type, "resource");
    const written = await call("write_file", { file_path: "n/new.txt", content: "x\n" });
    assert.equal((written.structuredContent as Record<string, unknown>).created, true);
    const listed = await call("list_files", { directory: "n" });
    assert.equal((listed.structuredContent as { total: number }).total, 1);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "one\ntwo\nthree\n");
  } finally {
    await conn.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("file tools refuse links outside under permissions scoped to the root", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-scoped-" }));
  const root = join(base, "proj");
  await Deno.mkdir(root);
  await Deno.mkdir(join(base, "outside"));
  await Deno.writeTextFile(join(base, "outside", "secret.txt"), "SECRET\n");
  await Deno.symlink(join(base, "outside", "secret.txt"), join(root, "leak"));
  await Deno.symlink(join(base, "outside"), join(root, "od"));
  await Deno.symlink(join(base, "outside", "missing.txt"), join(root, "dang"));
  const conn = await connect(root, {
    permissions: [`--allow-read=${root}`, `--allow-write=${root}`],
  });
  try {
    const cases: [string, Record<string, unknown>][] = [
      ["read_file", { filename: "leak" }],
      ["read_file", { filename: "od/secret.txt" }],
      ["list_files", { directory: "od" }],
      ["write_file", { file_path: "od/new.txt", content: "x" }],
      ["write_file", { file_path: "dang", content: "x" }],
      ["write_file", { file_path: "leak", content: "x" }],
    ];
    for (const [name, args] of cases) {
      const r = await callMcp(conn.client, name, args);
      assert.equal(r.status, "error", name);
      assert.match(String(r.error), /leads outside the project root through a link/, name);
      assert.doesNotMatch(String(r.error), /outside\/|--allow/, name);
    }
  } finally {
    await conn.close();
  }
  assert.equal(await Deno.readTextFile(join(base, "outside", "secret.txt")), "SECRET\n");
  assert.deepEqual([...Deno.readDirSync(join(base, "outside"))].map((e) => e.name), ["secret.txt"]);
  await Deno.remove(base, { recursive: true });
});
