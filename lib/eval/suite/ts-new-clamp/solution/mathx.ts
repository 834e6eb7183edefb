/** Linear interpolation between `a` and `b`: t = 0 gives a, t = 1 gives b. */
export function lerp(a: number, b: number, t: number): number {
  return a + (b - a) * t;
}

/** `value` limited to the range min..max; NaN stays NaN. */
export function clamp(value: number, min: number, max: number): number {
  if (min > max) throw new RangeError(`min (${min}) is greater than max (${max})`);
  if (Number.isNaN(value)) return value;
  return Math.min(max, Math.max(min, value));
}
