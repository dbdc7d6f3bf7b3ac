/** A setting given as text (an environment variable): a whole number above zero, or undefined for anything else. */
export function positiveInt(value: unknown): number | undefined {
  const parsed = Number(value);
  return typeof value === "string" && Number.isInteger(parsed) && parsed > 0 ? parsed : undefined;
}
