/** One line of an order. Money is always in integer cents. */
export interface LineItem {
  sku: string;
  unitCents: number;
  quantity: number;
  /** Gift-wrapped items cost 250 cents more per unit, never discounted. */
  giftWrap?: boolean;
}

export interface Order {
  id: string;
  items: LineItem[];
  /** Percent off the goods (0-100); never applies to shipping or gift wrap. */
  discountPercent?: number;
  shippingCents: number;
}
