import { parseArgs } from "./cli.ts";
import { defaults } from "./settings.ts";

function same(actual: unknown, expected: unknown, what: string) {
  const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)];
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

Deno.test("color is on by default", () => {
  same(defaults(), { verbose: false, output: "-", color: true }, "defaults()");
  same(parseArgs([]), { verbose: false, output: "-", color: true }, "parseArgs([])");
});

Deno.test("--no-color turns it off", () => {
  same(parseArgs(["--no-color", "-v"]), { verbose: true, output: "-", color: false }, "--no-color -v");
  same(parseArgs(["-o", "x.txt", "--no-color"]).color, false, "-o x.txt --no-color");
});

Deno.test("unknown flags still throw", () => {
  let threw = false;
  try {
    parseArgs(["--colour"]);
  } catch {
    threw = true;
  }
  same(threw, true, "--colour throws");
});
