import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import outline from "../../tools/outline.ts";
import {
  formatItem,
  outlineSource,
  readSource,
  SUPPORTED_EXTENSIONS,
} from "../../lib/outline/mod.ts";
import { resolveSymbol, resolveSymbols } from "../../lib/implement/symbols.ts";
import { ToolError } from "../../lib/errors.ts";
import { callMcp, connect } from "../helpers/mcp.ts";
import { callJson, tempProject, testContext } from "../helpers/project.ts";

/** Sample sources, stored as `.txt` so that `deno lint` and `deno check` leave them alone. */
const FIXTURES = fileURLToPath(new URL("../fixtures/outline/", import.meta.url));

/** The exact outline of every sample file, one per supported language. */
const EXPECTED: Record<string, string[]> = {
  "sample.py": [
    "4-4|constant|MAX_SIZE|MAX_SIZE = 100",
    "6-6|type|Alias|Alias: TypeAlias = dict[str, int]",
    "9-10|function|add|def add(a, b)",
    "13-29|class|Point|class Point",
    "15-15|constant|Point.ORIGIN|ORIGIN = 0",
    "17-19|method|Point.__init__|def __init__(self, x, y)",
    "21-25|method|Point.norm|def norm(self) -> float",
    "27-29|class|Point.Inner|class Inner",
    "28-29|method|Point.Inner.method|def method(self)",
    "32-34|function|fetch|async def fetch(url: str, timeout: int = 5) -> bytes",
  ],
  "sample.ts": [
    "3-3|constant|LIMIT|export const LIMIT = 10",
    "4-4|function|handler|const handler = (req: Request): Response",
    "7-9|interface|Shape|export interface Shape",
    "11-11|type|Id|export type Id = string | number",
    "13-16|enum|Color|enum Color",
    "18-20|function|area|export function area(s: Shape): number",
    "22-37|class|Circle|export default class Circle implements Shape",
    "23-23|constant|Circle.PI|static readonly PI = 3.14",
    "24-24|method|Circle.constructor|constructor(private r: number)",
    "26-28|method|Circle.area|area(): number",
    "30-32|method|Circle.radius|get radius(): number",
    "34-36|method|Circle.onClick|onClick = ()",
    "39-43|module|Geometry|namespace Geometry",
    "40-42|function|Geometry.scale|export function scale(n: number): number",
    "45-47|class|Base|abstract class Base",
    "46-46|method|Base.run|abstract run(): void",
    "49-51|function|gen|function* gen(): Generator<number>",
    "53-53|function|overload|declare function overload(a: string): string",
  ],
  "sample.tsx": [
    "3-5|interface|Props|interface Props",
    "7-9|function|Hello|export function Hello({name}: Props)",
    "11-15|function|Card|export const Card = (props: Props)",
    "17-21|class|Panel|class Panel extends React.Component<Props>",
    "18-20|method|Panel.render|render()",
  ],
  "sample.js": [
    "3-3|constant|DEFAULT_PORT|const DEFAULT_PORT = 8080",
    "5-7|function|start|function start(port)",
    "9-21|class|Server|class Server",
    "10-12|method|Server.constructor|constructor(port)",
    "14-16|method|Server.listen|listen()",
    "18-20|method|Server.create|static create()",
    "23-23|function|stop|const stop = function ()",
    "25-25|function|stream|async function* stream()",
  ],
  "sample.jsx": [
    "1-3|function|App|export function App()",
    "5-5|function|Button|export const Button = ({label})",
    "7-11|class|Modal|export class Modal extends Component",
    "8-10|method|Modal.render|render()",
    "13-15|constant|default|export default defineConfig(",
  ],
  "sample.go": [
    "5-5|constant|MaxItems|const MaxItems = 10",
    "8-8|constant|A|A = iota",
    "9-9|constant|B|B",
    "14-16|interface|Shape|type Shape interface",
    "18-20|struct|Rect|type Rect struct",
    "22-22|type|ID|type ID string",
    "24-26|method|Rect.Area|func (r Rect) Area() float64",
    "28-30|method|Rect.Scale|func (r *Rect) Scale(f float64)",
    "32-34|function|main|func main()",
    "36-38|function|Map|func Map[T any](xs []T, f func(T) T) []T",
  ],
  "sample.rs": [
    "3-3|constant|MAX|pub const MAX: u32 = 10",
    '4-4|constant|NAME|static NAME: &str = "x"',
    "6-9|struct|Point|pub struct Point",
    "11-14|enum|Shape|pub enum Shape",
    "16-21|trait|Area|pub trait Area",
    "17-17|method|Area.area|fn area(&self) -> f64",
    "18-20|method|Area.describe|fn describe(&self) -> String",
    "24-26|method|Point.new|pub fn new(x: i32, y: i32) -> Self",
    "30-32|method|Point.fmt|fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result",
    "35-35|type|Pair|type Pair = (i32, i32)",
    "37-41|module|util|mod util",
    "38-40|function|util.helper|pub fn helper() -> i32",
    "43-46|function|main|fn main()",
  ],
  "sample.java": [
    "5-22|class|Greeter|public class Greeter",
    "6-6|constant|Greeter.MAX|public static final int MAX = 3",
    "9-11|method|Greeter.Greeter|public Greeter(String name)",
    "13-15|method|Greeter.greet|public String greet()",
    "17-19|interface|Greeter.Listener|interface Listener",
    "18-18|method|Greeter.Listener.onGreet|void onGreet(String who)",
    "21-21|enum|Greeter.Mood|enum Mood",
    "24-24|class|Pair|record Pair(int a, int b)",
  ],
  "sample.c": [
    "3-3|constant|MAX_LEN|#define MAX_LEN 64",
    "6-9|struct|point|struct point",
    "11-11|type|point_t|typedef struct point point_t",
    "13-13|enum|color|enum color",
    "15-15|constant|LIMIT|static const int LIMIT = 5",
    "17-19|function|add|static int add(int a, int b)",
    "21-23|function|name_of|char *name_of(struct point *p)",
    "25-28|function|main|int main(void)",
  ],
  "sample.cpp": [
    "3-21|module|geo|namespace geo",
    "5-5|constant|geo.kMax|constexpr int kMax = 4",
    "7-12|class|geo.Shape|class Shape",
    "9-9|method|geo.Shape.~Shape|virtual ~Shape() = default",
    "11-11|method|geo.Shape.name|std::string name() const",
    "14-17|struct|geo.Square|struct Square : Shape",
    "16-16|method|geo.Square.area|double area() const override",
    "23-25|method|geo.Shape_area|double geo::Shape_area(const geo::Shape &s)",
    "27-30|function|twice|T twice(T x)",
    "32-32|enum|Mode|enum class Mode",
  ],
  "sample.rb": [
    '3-3|constant|VERSION|VERSION = "1.0"',
    "5-21|module|Tools|module Tools",
    "6-20|class|Tools.Parser|class Parser",
    "7-7|constant|Tools.Parser.LIMIT|LIMIT = 3",
    "9-11|method|Tools.Parser.initialize|def initialize(text)",
    "13-15|method|Tools.Parser.parse|def parse",
    "17-19|method|Tools.Parser.build|def self.build(text)",
    "23-25|function|main|def main",
  ],
  "sample.sh": [
    "6-8|function|greet|greet()",
    "10-12|function|cleanup|function cleanup",
  ],
};

async function outlineOf(name: string): Promise<string[]> {
  const source = await readSource(`${FIXTURES}${name}.txt`, name);
  return (await outlineSource(source.language, source.text)).items.map(formatItem);
}

for (const [name, lines] of Object.entries(EXPECTED)) {
  Deno.test(`outline lists ${name} exactly`, async () => {
    assert.deepEqual(await outlineOf(name), lines);
  });
}

Deno.test("outline still lists what parsed in a file with syntax errors", async () => {
  const root = await tempProject({
    "broken.py": await Deno.readTextFile(`${FIXTURES}broken.py.txt`),
  });
  const out = await callJson(outline, { path: "broken.py" }, testContext(root));
  assert.equal(out.status, "ok");
  assert.deepEqual(out.items, [
    "1-2|function|good|def good(a)",
    "5-6|function|broken|def broken(",
    "9-11|class|Later|class Later",
    "10-11|method|Later.method|def method(self)",
  ]);
  assert.match(String(out.note), /syntax errors/);
});

Deno.test("outline answers through the tool with path, language, items and total", async () => {
  const root = await tempProject({
    "src/app.jsx": await Deno.readTextFile(`${FIXTURES}sample.jsx.txt`),
  });
  const out = await callJson(outline, { path: "src/app.jsx" }, testContext(root));
  assert.deepEqual(out, {
    status: "ok",
    path: "src/app.jsx",
    language: "javascript",
    items: EXPECTED["sample.jsx"],
    total: 5,
  });
});

Deno.test("outline caps the list near 3,000 characters and says how to see the rest", async () => {
  const body = Array.from(
    { length: 200 },
    (_, i) => `def function_number_${i}(alpha, beta, gamma):\n    return ${i}\n`,
  );
  const root = await tempProject({ "many.py": body.join("\n") });
  const out = await callJson(outline, { path: "many.py" }, testContext(root));
  const items = out.items as string[];
  assert.equal(out.total, 200);
  assert.ok(items.length < 60, String(items.length));
  assert.ok(items.join("\n").length <= 3000);
  assert.equal(
    items[0],
    "1-2|function|function_number_0|def function_number_0(alpha, beta, gamma)",
  );
  assert.match(String(out.note), new RegExp(`${200 - items.length} more items.*max_items=200`));
  const all = await callJson(outline, { path: "many.py", max_items: 200 }, testContext(root));
  assert.equal((all.items as string[]).length, 200);
  assert.equal(all.note, undefined);
  const few = await callJson(outline, { path: "many.py", max_items: 5 }, testContext(root));
  assert.equal((few.items as string[]).length, 5);
});

Deno.test("outline refuses unsupported, missing, binary and outside files clearly", async () => {
  const root = await tempProject({
    "notes.txt": "hello\n",
    "bin.py": new Uint8Array([100, 101, 102, 0, 1]),
    "latin.py": new Uint8Array([120, 32, 61, 32, 34, 0xe9, 34, 10]),
  });
  const ctx = testContext(root);
  const unsupported = await callJson(outline, { path: "notes.txt" }, ctx);
  assert.equal(unsupported.status, "error");
  assert.match(String(unsupported.error), /supported extensions are .*\.py .*\.ts .*\.tsx/);
  for (const ext of SUPPORTED_EXTENSIONS) assert.ok(String(unsupported.error).includes(ext));
  assert.match(String((await callJson(outline, { path: "nope.py" }, ctx)).error), /does not exist/);
  assert.match(String((await callJson(outline, { path: "bin.py" }, ctx)).error), /binary/);
  assert.match(String((await callJson(outline, { path: "latin.py" }, ctx)).error), /not UTF-8/);
  const outside = await callJson(outline, { path: "../x.py" }, ctx);
  assert.equal(outside.status, "error");
  assert.match(String(outside.error), /escapes the project root/);
});

const SYMBOLS_PY = `class Shape:
    def area(self):
        return 0

    def name(self):
        return "shape"


class Square(Shape):
    def area(self):
        return 1

    class Side:
        def length(self):
            return 2


def helper():
    pass
`;

Deno.test("resolveSymbol finds full names and unique suffixes", async () => {
  const root = await tempProject({ "shapes.py": SYMBOLS_PY });
  assert.deepEqual(await resolveSymbol(root, "shapes.py", "Square.area"), {
    name: "Square.area",
    kind: "method",
    start: 10,
    end: 11,
  });
  assert.deepEqual(await resolveSymbol(root, "shapes.py", "name"), {
    name: "Shape.name",
    kind: "method",
    start: 5,
    end: 6,
  });
  assert.equal((await resolveSymbol(root, "shapes.py", "Side.length")).name, "Square.Side.length");
  assert.equal((await resolveSymbol(root, "shapes.py", "Square::Side")).start, 13);
  assert.deepEqual(await resolveSymbol(root, "shapes.py", "Shape"), {
    name: "Shape",
    kind: "class",
    start: 1,
    end: 6,
  });
  const both = await resolveSymbols(root, "shapes.py", ["helper", "Shape.area"]);
  assert.deepEqual(both.map((s) => [s.start, s.end]), [[18, 19], [2, 3]]);
});

Deno.test("resolveSymbol lists candidates for ambiguous and unknown names", async () => {
  const root = await tempProject({ "shapes.py": SYMBOLS_PY, "empty.py": "x = 1\n" });
  await assert.rejects(
    () => resolveSymbol(root, "shapes.py", "area"),
    (err: Error) => {
      assert.ok(err instanceof ToolError);
      assert.match(err.message, /ambiguous/);
      assert.match(err.message, /Shape\.area \(method, lines 2-3\)/);
      assert.match(err.message, /Square\.area \(method, lines 10-11\)/);
      assert.deepEqual(err.fields.candidates, ["Shape.area", "Square.area"]);
      return true;
    },
  );
  await assert.rejects(
    () => resolveSymbol(root, "shapes.py", "Circle.are"),
    /not found in "shapes\.py"; similar names: Shape\.area .*Square\.area/,
  );
  await assert.rejects(() => resolveSymbol(root, "shapes.py", "zzz"), /it defines: Shape \(class/);
  await assert.rejects(() => resolveSymbol(root, "empty.py", "x"), /defines no symbols/);
  await assert.rejects(() => resolveSymbol(root, "notes.md", "x"), /supported extensions/);
  await assert.rejects(() => resolveSymbol(root, "../etc.py", "x"), /escapes the project root/);
});

Deno.test("outline works under the read-only preset with embedded grammars", async () => {
  const root = await tempProject({
    "a.py": "def f():\n    pass\n",
    "b.go": "package b\n\nfunc G() {}\n",
  });
  const conn = await connect(root, { permissions: [`--allow-read=${root}`] });
  try {
    const py = await callMcp(conn.client, "outline", { path: "a.py" });
    assert.deepEqual(py.items, ["1-2|function|f|def f()"]);
    const go = await callMcp(conn.client, "outline", { path: "b.go" });
    assert.deepEqual(go.items, ["3-3|function|G|func G()"]);
  } finally {
    await conn.close();
  }
});
