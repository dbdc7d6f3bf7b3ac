import type { RedactionLevel } from "./redaction.ts";
import { pageStorage } from "../ui/storage.ts";

const KEY = "pi-playground:redaction";
const LEVELS: readonly RedactionLevel[] = ["none", "secrets", "strict"];

/**
 * The redaction level last chosen for an export, used again for the next export and for copied
 * payloads. Until one is chosen: secrets, so that no key leaves by default.
 */
export function readRedactionLevel(storage = pageStorage()): RedactionLevel {
  try {
    const value = storage?.getItem(KEY);
    return LEVELS.find((level) => level === value) ?? "secrets";
  } catch {
    return "secrets";
  }
}

export function writeRedactionLevel(level: RedactionLevel, storage = pageStorage()): void {
  try {
    storage?.setItem(KEY, level);
  } catch {
    // Only the preference is lost.
  }
}

/** A payload as copied: redacted at the remembered level. The rules load with the first copy. */
export async function redactedForCopy(text: string, storage = pageStorage()): Promise<string> {
  const { redactCopy } = await import("./redaction.ts");
  return redactCopy(text, readRedactionLevel(storage));
}
