/**
 * Split a whole number in proportion to weights so that the parts are whole numbers adding up to it
 * exactly (the largest-remainder method): the provider's token count is an integer, and the categories
 * a view shows must add up to it, not to it give or take rounding.
 */
export function apportion(weights: ArrayLike<number>, total: number): number[] {
  const count = weights.length;
  const parts = new Array<number>(count).fill(0);
  let sum = 0;
  for (let index = 0; index < count; index++) sum += Math.max(0, weights[index] ?? 0);
  if (count === 0 || sum <= 0 || total <= 0) return parts;
  const whole = Math.round(total);
  const remainders = new Float64Array(count);
  let given = 0;
  for (let index = 0; index < count; index++) {
    const quota = (Math.max(0, weights[index] ?? 0) * whole) / sum;
    const floor = Math.floor(quota);
    parts[index] = floor;
    remainders[index] = quota - floor;
    given += floor;
  }
  let left = whole - given;
  if (left <= 0) return parts;
  const order = Array.from({ length: count }, (_, index) => index).sort(
    (a, b) =>
      (remainders[b] as number) - (remainders[a] as number) || (weights[b] ?? 0) - (weights[a] ?? 0) || a - b,
  );
  for (const index of order) {
    if (left === 0) break;
    parts[index] = (parts[index] as number) + 1;
    left--;
  }
  return parts;
}
