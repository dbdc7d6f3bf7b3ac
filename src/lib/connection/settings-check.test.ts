import { describe, expect, it } from "vitest";
import { checkProxySettings } from "./settings-check.ts";

const httpPage = { protocol: "http:", origin: "http://127.0.0.1:8080" };
const httpsPage = { protocol: "https:", origin: "https://me.github.io" };
const TOKEN = "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6";

function errorOf(url: string, token = TOKEN, page = httpPage): string | undefined {
  const check = checkProxySettings({ url, token }, page);
  return check.ok ? undefined : check.error;
}

describe("checkProxySettings", () => {
  it("keeps scheme, host, port and a path prefix, without the trailing slash", () => {
    expect(checkProxySettings({ url: " http://127.0.0.1:4180/ ", token: ` ${TOKEN} ` }, httpPage)).toEqual({
      ok: true,
      settings: { url: "http://127.0.0.1:4180", token: TOKEN },
    });
    expect(checkProxySettings({ url: "https://proxy.example/pi/", token: TOKEN }, httpsPage)).toMatchObject({
      settings: { url: "https://proxy.example/pi" },
    });
  });

  it("says what is wrong with an address", () => {
    expect(errorOf("")).toMatch(/Enter the proxy's address/);
    expect(errorOf("127.0.0.1:4180")).toMatch(/not an address|starts with http/);
    expect(errorOf("proxy")).toMatch(/not an address/);
    expect(errorOf("ftp://proxy.example")).toMatch(/starts with http/);
    expect(errorOf("http://user:pw@proxy.example")).toMatch(/credentials/);
    expect(errorOf("http://proxy.example/?a=1")).toMatch(/no query/);
    expect(errorOf("http://127.0.0.1:8080")).toMatch(/this page's own address/);
  });

  it("refuses a plain-HTTP proxy elsewhere from an HTTPS page, which the browser would block, but not loopback", () => {
    expect(errorOf("http://10.0.0.5:4180", TOKEN, httpsPage)).toMatch(/served over HTTPS.*10\.0\.0\.5:4180/);
    expect(errorOf("http://127.0.0.1:4180", TOKEN, httpsPage)).toBeUndefined();
    expect(errorOf("http://localhost:4180", TOKEN, httpsPage)).toBeUndefined();
  });

  it("wants the proxy's token, and refuses what looks like a provider key", () => {
    expect(errorOf("http://127.0.0.1:4180", "")).toMatch(/printed when it started/);
    expect(errorOf("http://127.0.0.1:4180", "two words")).toMatch(/no spaces/);
    for (const key of ["sk-proj-abcdef123456", "sk-ant-api03-xyz", "AIzaSyD-something", "gsk_123"]) {
      expect(errorOf("http://127.0.0.1:4180", key)).toMatch(/provider API key/);
    }
  });
});
