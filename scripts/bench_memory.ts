/**
 * A server's memory over a mixed run and after it (issue 36): `deno task bench memory --tree DIR`.
 *
 * Beside the server measured, two servers of the same checkout are started the same way and read
 * at the same moments: one left idle (the handshake, `tools/list`), one that makes the same finds
 * and no outline (what outline adds is the difference). The measured one makes 50 finds (the
 * pattern set of `bench_find.ts`, every third a word found nowhere) with 20 outlines of files it
 * never outlined between them (source files of the tree, 20-200 KB, Python, TypeScript, Rust,
 * JavaScript and Go where there are any), then sits idle for `--wait` ms (60 s): outline's worker
 * ends after `OUTLINE_IDLE_MS`, find's listing and worker after `FIND_IDLE_MS`. Last, as a client
 * coming back: a find matching files of one language (timed: it lists the tree anew once find's
 * memory has gone back), the same find again (warm), a second's pause, and an outline of a file of
 * that language never outlined, timed. With `--compare main.ts` a third server, of that checkout,
 * makes the same calls, call by call. With `--parts`, two more servers of this checkout make them
 * too, one whose outline worker ends after {@linkcode PART_IDLE_MS} without an outline
 * (`LOCALEXEC_OUTLINE_IDLE_MS`), one whose find listing and worker go after as long without a find
 * (`LOCALEXEC_FIND_IDLE_MS`); {@linkcode PART_WAIT_MS} after the run every server is read again,
 * and what each part holds is the measured server's memory less that of the server without it.
 */
import { parseArgs } from "../lib/deps.ts";
import { OUTLINE_IDLE_MS } from "../lib/outline/host.ts";
import { FIND_IDLE_MS } from "../lib/mcp/find_idle.ts";
import { PATTERN_SET } from "./bench_find.ts";
import { machine, Server, timed } from "./mcp_driver.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    tree: { type: "string" },
    wait: { type: "string", default: "60000" },
    compare: { type: "string" },
    parts: { type: "boolean", default: false },
  },
});

/**
 * `--parts`: how long the servers measured without a part keep it idle. Longer than a server waits
 * between its own calls in the run (the other servers' calls: well under a second once the tree
 * is listed), so the part lives through the run as in the measured server, and ends soon after.
 */
const PART_IDLE_MS = 2500;

/** `--parts`: when, after the run, every server is read again (the parts have ended by then). */
const PART_WAIT_MS = 5000;

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
  const findsOnly = await new Server(root).start();
  const servers = [findsOnly, await new Server(root).start()];
  if (args.values.compare) {
    servers.push(await new Server(root, undefined, args.values.compare).start());
  }
  const parts = args.values.parts
    ? [
      ["outline's worker", "LOCALEXEC_OUTLINE_IDLE_MS"],
      ["find's listing and worker", "LOCALEXEC_FIND_IDLE_MS"],
    ].map(([part, variable]) => ({
      part,
      server: new Server(root, undefined, undefined, { [variable]: String(PART_IDLE_MS) }),
    }))
    : [];
  for (const { server } of parts) servers.push(await server.start());
  const rows: number[][] = [idle, ...servers].map((s) => [s.rssMb()]);
  for (const s of [idle, ...servers]) await s.tools();
  await new Promise((resolve) => setTimeout(resolve, 1500)); // a client's pause: find gets ready
  const sample = () => [idle, ...servers].forEach((s, k) => rows[k].push(s.rssMb()));
  sample();
  console.log(
    `machine: ${machine()}; tree: ${root}; idle times: outline ${OUTLINE_IDLE_MS} ms, find ` +
      `${FIND_IDLE_MS} ms`,
  );
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
      for (const s of servers.slice(1)) await s.call("outline", { path, max_items: 60 });
    }
  }
  sample();
  let waited = 0;
  if (parts.length) {
    await new Promise((resolve) => setTimeout(resolve, waited = PART_WAIT_MS));
    const measured = servers[1].rssMb();
    const shares = parts.map(({ part, server }) =>
      `${part} ${(measured - server.rssMb()).toFixed(0)}`
    );
    console.log(
      `${PART_WAIT_MS / 1000} s after the run, what each part holds in the measured server (MB, ` +
        `against a server whose part has ended): ${shares.join(", ")}`,
    );
  }
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait - waited)));
  sample();
  // As a client comes back: a find that matches a file of the next outline's language, the
  // model's turn, then the outline (the worker is started ahead, at the quiet moment between).
  const after: number[] = [NaN];
  const ext = last.slice(last.lastIndexOf("."));
  const back = { pattern: "\\S", glob: `*${ext}` };
  const finds: string[] = [];
  for (const s of servers.slice(1)) {
    const [cold] = await timed(() => s.call("find", back));
    const [warm] = await timed(() => s.call("find", back));
    finds.push(`${cold.toFixed(0)} ms, again ${warm.toFixed(0)} ms`);
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  for (const s of servers.slice(1)) {
    after.push((await timed(() => s.call("outline", { path: last })))[0]);
  }
  const binary = [idle, ...servers].map((s) => _binaryMb(s.pid));
  const names = ["idle", "finds only", "finds+outlines"];
  if (args.values.compare) names.push("--compare");
  for (const { part } of parts) names.push(`no ${part.split(" ")[0].replace("'s", "")} part`);
  console.log(
    `${outlined} outlines, 50 finds; resident MB: handshake / ready / after / ${
      wait / 1000
    } s later`,
  );
  for (const [k, m] of rows.entries()) {
    const over = (r: number) =>
      `over ${names[r]} +${(m[2] - rows[r][2]).toFixed(0)} after, ` +
      `+${(m[3] - rows[r][3]).toFixed(0)} later`;
    const note = k < 2
      ? ""
      : `; ${over(0)}; ${over(1)}; after the wait: find ${finds[k - 2]}, outline ${
        after[k - 1].toFixed(0)
      } ms`;
    console.log(
      `${names[k].padEnd(15)} ${m.map((x) => x.toFixed(0)).join(" / ")} ` +
        `(the binary's pages ${binary[k]} MB)${note}`,
    );
  }
  for (const s of [idle, ...servers]) await s.close();
}

/** Resident MB of the Deno binary's own pages in process `pid` (code and data it has touched). */
function _binaryMb(pid: number): number {
  let kb = 0;
  let binary = false;
  for (const line of Deno.readTextFileSync(`/proc/${pid}/smaps`).split("\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) binary = head[1] === Deno.execPath();
    else if (binary && line.startsWith("Rss:")) kb += Number(/(\d+)/.exec(line)![1]);
  }
  return Math.round(kb / 1024);
}

if (import.meta.main) await main();
