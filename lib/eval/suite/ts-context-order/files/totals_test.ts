import { orderTotal } from "./totals.ts";
import type { Order } from "./types.ts";

function equal(actual: unknown, expected: unknown, what: string) {
  if (actual !== expected) throw new Error(`${what}: expected ${expected}, got ${actual}`);
}

const order = (extra: Partial<Order>): Order => ({ id: "o1", items: [], shippingCents: 0, ...extra });

Deno.test("goods plus shipping", () => {
  equal(orderTotal(order({ shippingCents: 499 })), 499, "shipping only");
  const items = [{ sku: "a", unitCents: 1000, quantity: 2 }, { sku: "b", unitCents: 350, quantity: 1 }];
  equal(orderTotal(order({ items, shippingCents: 500 })), 2850, "two lines and shipping");
});

Deno.test("discount on goods only, rounded to the cent", () => {
  const items = [{ sku: "a", unitCents: 999, quantity: 1 }];
  equal(orderTotal(order({ items, discountPercent: 15, shippingCents: 100 })), 949, "15% off 999");
});

Deno.test("gift wrap per unit, never discounted", () => {
  const items = [{ sku: "a", unitCents: 2000, quantity: 2, giftWrap: true }];
  equal(orderTotal(order({ items, discountPercent: 50 })), 2500, "50% off 4000 plus wrap");
});
