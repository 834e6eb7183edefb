/**
 * Recognising the file path a model writes before an edit block, in the many ways small models
 * write it: `calc.py`, `calc.py:`, `### calc.py`, `**calc.py**`, `` `calc.py` ``, `File: calc.py`,
 * `# calc.py`, `// calc.py`, a fence info string (```` ```python calc.py ````), or a sentence that
 * names exactly one file (`Here is the fix for `calc.py`:`).
 */
import { normalize } from "../deps.ts";

/** File names without an extension that still look like paths. */
const BARE_NAMES = new Set([
  "Makefile",
  "Dockerfile",
  "Containerfile",
  "Rakefile",
  "Gemfile",
  "Procfile",
  "Justfile",
  "LICENSE",
  "README",
  "CHANGELOG",
]);

/** Extensions that make a bare name (no folder) count as a path. */
const KNOWN_EXTENSIONS = new Set(
  ("py pyi pyw js mjs cjs jsx ts mts cts tsx json jsonc json5 md mdx txt rst toml yaml yml ini cfg conf " +
    "sh bash zsh fish ps1 bat go rs java kt kts scala groovy gradle c h cc cpp cxx hpp hh cs fs rb php " +
    "swift m mm lua pl pm r jl dart ex exs erl hs ml sql html htm css scss sass less vue svelte astro xml " +
    "svg env lock tf hcl proto graphql gql csv tsv dockerfile mk cmake nix zig v sol elm clj cljs edn " +
    "gitignore editorconfig properties").split(" "),
);

/** Lines longer than this are prose, not a path line (and keep the regexes cheap). */
const MAX_PATH_LINE = 300;

const PATH_CHARS = /^[\w@+.\-\[\]][\w@+.\-\/\[\]]*$/;
const EXTENSION = /\.[A-Za-z0-9_]{1,12}$/;

/** Placeholder folders models put before a file name (`path/to/`, `your_project/`). */
const PLACEHOLDER =
  /^((?:path\/(?:to|of)|your[-_]?(?:project|repo|repository|app|code|dir|directory|folder))\/)(.+)$/i;

/** Normalises a path as a model wrote it: `./a.py` → `a.py`, `a\\b.py` → `a/b.py`, `/a.py` → `a.py`. */
export function normalizePath(path: string): string {
  let p = path.trim().replaceAll("\\", "/");
  p = normalize(p).replaceAll("\\", "/");
  while (p.startsWith("./")) p = p.slice(2);
  if (p.startsWith("/")) p = p.replace(/^\/+/, "");
  return p.endsWith("/") ? p.slice(0, -1) : p;
}

/** True when `text` (already stripped of decoration) looks like a file path. */
export function looksLikePath(text: string, known: readonly string[] = []): boolean {
  if (!text || text.length > 240) return false;
  if (known.includes(normalizePath(text))) return true;
  if (!PATH_CHARS.test(text) || /^\.+$/.test(text) || text.endsWith(".")) return false;
  if (/^\d+(\.\d+)*$/.test(text)) return false;
  const name = text.split("/").pop() ?? "";
  if (BARE_NAMES.has(name)) return true;
  const dot = name.lastIndexOf(".");
  if (dot <= 0 && !name.startsWith(".")) return false;
  const ext = name.slice(dot + 1).toLowerCase();
  // A dotted identifier such as `self.value` is code; unknown extensions need a folder part.
  return KNOWN_EXTENSIONS.has(ext) || (text.includes("/") && EXTENSION.test(name));
}

/**
 * Maps a path the model wrote onto a known path: exact, else a unique known path it is a suffix
 * of (`calc.py` for `src/calc.py`) or a unique known path with a folder that is its suffix
 * (`proj/src/calc.py` for `src/calc.py`).
 * Returns the normalised path unchanged when nothing known fits.
 */
export function resolvePath(written: string, known: readonly string[]): string {
  const p = normalizePath(written);
  if (known.includes(p)) return p;
  // `path/to/calc.py`: a placeholder folder the model invented; the rest must name one file.
  const tail = p.match(PLACEHOLDER)?.[2];
  if (tail) {
    const named = known.filter((k) =>
      k === tail || k.endsWith(`/${tail}`) || tail.endsWith(`/${k}`)
    );
    const base = known.filter((k) => k.slice(k.lastIndexOf("/") + 1) === tail);
    if (named.length === 1) return named[0];
    if (!named.length && base.length === 1) return base[0];
  }
  const longer = known.filter((k) => k.endsWith(`/${p}`));
  if (longer.length === 1) return longer[0];
  // `proj/src/calc.py` for `src/calc.py`; a bare `calc.py` is not matched this way, since
  // `tests/calc.py` is more likely another file than a prefixed `calc.py`.
  const shorter = known.filter((k) => k.includes("/") && p.endsWith(`/${k}`));
  return shorter.length === 1 ? shorter[0] : p;
}

function _strip(text: string): string {
  let s = text.trim();
  for (let round = 0; round < 4; round++) {
    const before = s;
    s = s.replace(/^(#+|\/\/+|--|;+|\/\*+|<!--|\*\s|[-+>]\s)\s*/, "");
    s = s.replace(/\s*(\*\/|-->)$/, "");
    s = s.replace(/^[*_`"']+|[*_`"']+$/g, "");
    s = s.replace(
      /^((new|updated|modified|changed)\s+)?(file ?name|file ?path|file|path)\s*[:=]\s*/i,
      "",
    );
    s = s.replace(/\s*\((new( file)?|modified|updated|changed|created|edited)\)$/i, "");
    s = s.replace(/\s*:$/, "").trim();
    if (s === before) break;
  }
  return s;
}

/** The path a whole line names (a path line, decorated or not), or `null`. */
export function pathFromLine(line: string, known: readonly string[]): string | null {
  if (line.length > MAX_PATH_LINE) return null;
  const s = _strip(line);
  return looksLikePath(s, known) ? resolvePath(s, known) : null;
}

/**
 * The files a line of prose mentions: `ticked`, the paths it writes in backticks; `plain`, the
 * files to edit it names without them.
 */
export function mentionedPaths(
  line: string,
  known: readonly string[],
  how: "ticked" | "plain",
): string[] {
  if (line.length > MAX_PATH_LINE) return [];
  if (how === "plain") return known.filter((k) => _mentions(line, k));
  const ticked = [...line.matchAll(/`([^`\s]+)`/g)].map((m) => m[1].replace(/:$/, ""))
    .filter((t) => looksLikePath(t, known) && (t.includes("/") || EXTENSION.test(t)));
  return [...new Set(ticked.map((t) => resolvePath(t, known)))];
}

function _mentions(line: string, path: string): boolean {
  const escaped = path.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(`(^|[\\s"'(*])${escaped}($|[\\s"'),:*])`).test(line);
}

/** The path named in a fence's info string (```` ```python src/a.py ````, ```` ```src/a.py ````). */
export function pathFromInfo(info: string, known: readonly string[]): string | null {
  if (info.length > MAX_PATH_LINE) return null;
  for (const token of info.split(/[\s:=]+/)) {
    const t = _strip(token);
    if (t && (t.includes("/") || t.includes(".")) && looksLikePath(t, known)) {
      return resolvePath(t, known);
    }
  }
  return null;
}
