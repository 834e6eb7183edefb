import type { Order } from "./types.ts";

/** What the customer pays for `order`, in cents. */
export function orderTotal(order: Order): number {
  let goods = 0;
  let wrap = 0;
  for (const item of order.items) {
    goods += item.unitCents * item.quantity;
    if (item.giftWrap) wrap += 250 * item.quantity;
  }
  const discount = Math.round(goods * (order.discountPercent ?? 0) / 100);
  return goods - discount + wrap + order.shippingCents;
}
