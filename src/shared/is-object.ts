/** A plain JSON object: what parsed input must be before its fields are read. Arrays and null are not. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
