import { describe, expect, it } from "vitest";
import { readRedactionLevel, redactedForCopy, writeRedactionLevel } from "./redaction-preference.ts";

function memoryStorage(): Storage {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  } as Storage;
}

describe("the remembered redaction level", () => {
  it("is secrets until chosen, then what was chosen; a stored value it does not know reads as secrets", () => {
    const storage = memoryStorage();
    expect(readRedactionLevel(storage)).toBe("secrets");
    writeRedactionLevel("strict", storage);
    expect(readRedactionLevel(storage)).toBe("strict");
    storage.setItem("pi-playground:redaction", "everything");
    expect(readRedactionLevel(storage)).toBe("secrets");
    expect(readRedactionLevel(undefined)).toBe("secrets");
  });

  it("redacts a copied payload at the remembered level", async () => {
    const storage = memoryStorage();
    writeRedactionLevel("none", storage);
    const payload = JSON.stringify({ messages: [{ content: "sk-test-ABCDEF1234567890 mail a@b.example" }] });
    expect(await redactedForCopy(payload, storage)).toBe(payload);
    writeRedactionLevel("strict", storage);
    const strict = await redactedForCopy(payload, storage);
    expect(strict).not.toContain("sk-test");
    expect(strict).not.toContain("a@b.example");
  });
});
