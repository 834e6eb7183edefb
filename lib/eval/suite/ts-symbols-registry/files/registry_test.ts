import { familyRavenJuniperPro, familyXenonOnyxMax, formatSku } from "./registry.ts";

function equal(actual: unknown, expected: unknown, what: string) {
  if (actual !== expected) throw new Error(`${what}: expected ${expected}, got ${actual}`);
}

function throwsRange(f: () => unknown, what: string) {
  try {
    f();
  } catch (err) {
    if (err instanceof RangeError) return;
  }
  throw new Error(`${what} should throw RangeError`);
}

Deno.test("six digits, category in capitals", () => {
  equal(formatSku("tea", 42), "TEA-000042", 'formatSku("tea", 42)');
  equal(formatSku("Lamp", 0), "LAMP-000000", 'formatSku("Lamp", 0)');
  equal(formatSku("x", 999999), "X-999999", 'formatSku("x", 999999)');
});

Deno.test("ids out of range", () => {
  throwsRange(() => formatSku("x", 1_000_000), 'formatSku("x", 1000000)');
  throwsRange(() => formatSku("x", -1), 'formatSku("x", -1)');
  throwsRange(() => formatSku("x", 1.5), 'formatSku("x", 1.5)');
});

Deno.test("the generated families are unchanged", () => {
  equal(familyRavenJuniperPro().code, "RAV44", "familyRavenJuniperPro().code");
  equal(familyXenonOnyxMax().shelf > 0, true, "familyXenonOnyxMax().shelf");
});
