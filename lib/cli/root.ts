/**
 * Which folder localexec serves, and whether serving it is safe (docs/ARCHITECTURE.md, "Roots").
 *
 * - `--root` wins; then the working folder. `INIT_CWD` (the folder `npx`/`deno task` were started
 *   in) counts only when the working folder is localexec's own checkout, which is where
 *   `deno task --config …/deno.json start` runs it; an `INIT_CWD` inherited from some parent never
 *   beats the folder a client starts the command in.
 * - `/` is never served. The home folder, or a folder without any project marker, is served with a
 *   loud warning (stderr and `status`) unless `--root` names it.
 */
import { join, resolve } from "../deps.ts";
import { isPermissionError } from "../errors.ts";

/** Files and folders that say "this folder is a project". */
export const PROJECT_MARKERS = [
  ".git",
  ".hg",
  ".svn",
  ".localexec.json",
  "package.json",
  "deno.json",
  "deno.jsonc",
  "pyproject.toml",
  "setup.py",
  "setup.cfg",
  "requirements.txt",
  "Cargo.toml",
  "go.mod",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
  "Gemfile",
  "composer.json",
  "CMakeLists.txt",
  "Makefile",
  "meson.build",
  "mix.exs",
  "Package.swift",
  "pubspec.yaml",
  "build.zig",
];

/** The folder to serve and where it came from. */
export interface RootChoice {
  path: string;
  /** True when `--root` named it: no warning for the home folder or a folder without markers. */
  explicit: boolean;
}

/** The value of environment variable `name`, or undefined without permission to read it. */
export function envVar(name: string): string | undefined {
  try {
    if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
      return undefined;
    }
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The root for `--root` (`given`), the working folder `cwd`, the `INIT_CWD` of the environment
 * and localexec's own folder `ownDir` (where `deno task --config` runs it).
 */
export function chooseRoot(
  given: string | undefined,
  cwd: string,
  initCwd: string | undefined,
  ownDir: string,
): RootChoice {
  if (given) return { path: resolve(cwd, given), explicit: true };
  if (initCwd && resolve(cwd) === resolve(ownDir)) {
    return { path: resolve(initCwd), explicit: false };
  }
  return { path: resolve(cwd), explicit: false };
}

/** What serving `root` (a real path) would mean: a refusal, a warning, or neither. */
export interface RootVerdict {
  refuse?: string;
  warning?: string;
}

async function _hasMarker(root: string): Promise<boolean | undefined> {
  for (const name of PROJECT_MARKERS) {
    try {
      await Deno.lstat(join(root, name));
      return true;
    } catch (err) {
      if (isPermissionError(err)) return undefined; // cannot tell: say nothing
    }
  }
  return false;
}

/** Judges `root`, a real path; `explicit` when `--root` named it. */
export async function judgeRoot(root: string, explicit: boolean): Promise<RootVerdict> {
  if (root === "/") {
    return {
      refuse: "refusing to serve / (the whole disk, with write and shell tools): start localexec " +
        "in your project folder or give --root DIR",
    };
  }
  if (explicit) return {};
  const home = envVar("HOME");
  if (home && (await Deno.realPath(home).catch(() => resolve(home))) === root) {
    return {
      warning: `serving your home folder ${root}: every tool can reach all of it; start ` +
        "localexec in a project folder, or give --root to mean it",
    };
  }
  if ((await _hasMarker(root)) === false) {
    return {
      warning: `${root} has no project marker (.git, package.json, pyproject.toml, …): is this ` +
        "the project you meant? Give --root to mean it",
    };
  }
  return {};
}

/**
 * The config file to use: `--config` as given (relative to the current folder, as on any command
 * line), else `name` in the root. A `--config` that names no file is an error, never "no config":
 * a mistyped path would silently run without the checks and the model it names. `init`, which
 * writes it, passes `toWrite`.
 */
export function configFile(
  given: string | undefined,
  root: string,
  name: string,
  toWrite = false,
): string {
  if (given === undefined) return join(root, name);
  const path = resolve(given);
  if (toWrite) return path;
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (err) {
    if (isPermissionError(err)) return path; // (the tools say what they cannot read)
    throw new Error(
      `--config ${JSON.stringify(given)}: no such file (${path}); give the path of a ` +
        `.localexec.json, or leave --config out to use the one in the project's root`,
    );
  }
  if (!info.isFile) throw new Error(`--config ${JSON.stringify(given)}: not a file (${path})`);
  return path;
}
