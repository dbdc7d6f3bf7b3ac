import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The README is read in two minutes: what the playground is, the screenshot, the commands, and links into
 * docs/ for the rest. It stays short, and every link into docs/ leads to a file that exists.
 */
const root = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(`${root}README.md`, "utf8");

describe("the README", () => {
  it("is at most 150 lines", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(150);
  });

  it("links into docs/, and every file it links to exists", () => {
    const links = [...readme.matchAll(/\]\((docs\/[^)#\s]+)/g)].map((match) => match[1] ?? "");
    expect(links.length).toBeGreaterThan(5);
    expect(links.filter((link) => !existsSync(`${root}${link}`))).toEqual([]);
  });
});
