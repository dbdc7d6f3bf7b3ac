import { describe, expect, it } from "vitest";
import { MemoryStorage } from "./proxy-connection.test-support.ts";
import { readProxySettings, writeProxySettings } from "./proxy-settings.ts";

const TOKEN = "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6";

describe("remembered settings", () => {
  it("are written, read back, and forgotten", () => {
    const storage = new MemoryStorage() as unknown as Storage;
    writeProxySettings(storage, { url: "http://127.0.0.1:4180", token: TOKEN });
    expect(readProxySettings(storage)).toEqual({ url: "http://127.0.0.1:4180", token: TOKEN });
    writeProxySettings(storage, undefined);
    expect(readProxySettings(storage)).toBeUndefined();
  });

  it("are ignored when damaged or of the wrong shape", () => {
    const storage = new MemoryStorage();
    for (const stored of [
      "{not json",
      JSON.stringify({ url: "javascript:alert(1)", token: TOKEN }),
      JSON.stringify({ url: "http://x", token: "" }),
      "[]",
    ]) {
      storage.setItem("pi-playground:proxy", stored);
      expect(readProxySettings(storage as unknown as Storage), stored).toBeUndefined();
    }
    expect(readProxySettings(undefined)).toBeUndefined();
  });
});
