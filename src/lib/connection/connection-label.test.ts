import { describe, expect, it } from "vitest";
import { connectionLabel, connectionSummary } from "./connection-label.ts";

describe("connectionLabel", () => {
  it("names where requests go", () => {
    expect(connectionLabel(undefined, true)).toBe("Proxy: looking…");
    expect(connectionLabel(undefined, false)).toBe("No proxy: Mirror runs in this page");
    expect(connectionLabel({ kind: "own", url: "http://127.0.0.1:4173" }, false)).toBe(
      "Proxy: this page's server",
    );
    expect(connectionLabel({ kind: "remote", url: "https://proxy.example:8443/pi" }, true)).toBe(
      "Proxy: proxy.example:8443",
    );
  });

  it("says in a sentence what happens without a proxy", () => {
    expect(connectionSummary(undefined)).toMatch(/offline Mirror models answer inside this page/);
    expect(connectionSummary({ kind: "remote", url: "http://127.0.0.1:4180" })).toBe(
      "Requests go to the proxy at http://127.0.0.1:4180.",
    );
  });
});
