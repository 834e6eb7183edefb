/**
 * A server's memory over a mixed run and after it (issue 36): `deno task bench memory --tree DIR`.
 *
 * Beside the server measured, a second server of the same checkout is started the same way and
 * left idle (the handshake, `tools/list`): the reference, read at the same moments. The measured
 * one makes 50 finds (the pattern set of `bench_find.ts`, every third a word found nowhere) with 20
 * outlines of files it never outlined between them (source files of the tree, 20-200 KB, Python,
 * TypeScript, Rust, JavaScript and Go where there are any), then sits idle for `--wait` ms (60 s):
 * outline's worker ends after `OUTLINE_IDLE_MS`. Last, one more outline of a file never outlined,
 * timed: what a client pays once the worker has ended. With `--compare main.ts` a third server, of
 * that checkout, makes the same calls, interleaved call by call.
 */
import { parseArgs } from "../lib/deps.ts";
import { OUTLINE_IDLE_MS } from "../lib/outline/host.ts";
import { PATTERN_SET } from "./bench_find.ts";
import { machine, Server, timed } from "./mcp_driver.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    tree: { type: "string" },
    wait: { type: "string", default: "60000" },
    compare: { type: "string" },
  },
});

/** What outline reads here, by extension. */
const KINDS = [".py", ".ts", ".rs", ".js", ".go"];

/** `count` source files of the tree, 20-200 KB, spread over its listing and the kinds above. */
async function _sources(root: string, count: number): Promise<string[]> {
  const out = await new Deno.Command("git", { args: ["ls-files"], cwd: root }).output();
  const byKind = new Map<string, string[]>(KINDS.map((k) => [k, []]));
  for (const path of new TextDecoder().decode(out.stdout).split("\n").sort()) {
    const kind = KINDS.find((k) => path.endsWith(k) && !path.endsWith(".d.ts"));
    if (!kind) continue;
    const size = (await Deno.stat(`${root}/${path}`).catch(() => undefined))?.size ?? 0;
    if (size >= 20_000 && size <= 200_000) byKind.get(kind)!.push(path);
  }
  const picked: string[] = [];
  for (let i = 0; picked.length < count && i < count; i++) {
    for (const files of byKind.values()) {
      if (files.length > i && picked.length < count) {
        picked.push(files[Math.floor((i * files.length) / count)]);
      }
    }
  }
  return picked;
}

async function main(): Promise<void> {
  const root = args.values.tree;
  if (!root) throw new Error("give --tree DIR: a git work tree of real sources");
  const wait = Number(args.values.wait);
  const sources = await _sources(root, 21);
  const last = sources.pop()!;
  const idle = await new Server(root).start();
  const servers = [await new Server(root).start()];
  if (args.values.compare) {
    servers.push(await new Server(root, undefined, args.values.compare).start());
  }
  const rows: number[][] = [idle, ...servers].map((s) => [s.rssMb()]);
  for (const s of [idle, ...servers]) await s.tools();
  await new Promise((resolve) => setTimeout(resolve, 1500)); // a client's pause: find gets ready
  const sample = () => [idle, ...servers].forEach((s, k) => rows[k].push(s.rssMb()));
  sample();
  console.log(`machine: ${machine()}; tree: ${root}; outline's idle time ${OUTLINE_IDLE_MS} ms`);
  let outlined = 0;
  for (let i = 1; i <= 50; i++) {
    const c = PATTERN_SET[i % PATTERN_SET.length];
    const find = i % 3
      ? {
        pattern: c.pattern,
        ...(c.ignoreCase ? { ignore_case: true } : {}),
        ...(c.glob ? { glob: c.glob } : {}),
      }
      : { pattern: `zqxjkv${i}` };
    for (const s of servers) await s.call("find", find);
    if (i % 5 === 0 || i % 5 === 2) {
      const path = sources[outlined++];
      for (const s of servers) await s.call("outline", { path, max_items: 60 });
    }
  }
  sample();
  await new Promise((resolve) => setTimeout(resolve, wait));
  sample();
  const after: number[] = [];
  for (const s of servers) after.push((await timed(() => s.call("outline", { path: last })))[0]);
  const names = ["idle reference", "measured", "--compare"];
  console.log(
    `${outlined} outlines, 50 finds; resident MB: handshake / ready / after / ${
      wait / 1000
    } s later`,
  );
  for (const [k, m] of rows.entries()) {
    const over = k
      ? `; over the reference: +${(m[2] - rows[0][2]).toFixed(0)} after, ` +
        `+${(m[3] - rows[0][3]).toFixed(0)} later; outline after the wait ${
          after[k - 1].toFixed(0)
        } ms`
      : "";
    console.log(`${names[k].padEnd(15)} ${m.map((x) => x.toFixed(0)).join(" / ")}${over}`);
  }
  for (const s of [idle, ...servers]) await s.close();
}

if (import.meta.main) await main();
