import { describe, expect, it } from "vitest";
import { sourceMapWithCompileHint, wantsCompileHint, withCompileHint } from "./compile-hints.mjs";

const chunk = (name: string, moduleIds: string[], isEntry = false) => ({
  name,
  moduleIds,
  isEntry,
  fileName: `assets/${name}-abc123.js`,
});
const MODULES = ["src/lib/ui/VirtualList.svelte", "src/InspectorPane.svelte"];
const wants = (tested: ReturnType<typeof chunk>) => wantsCompileHint(tested, MODULES, ["app"]);

describe("the eager compile hint", () => {
  it("is given to a lazy chunk holding a listed module, whatever else it holds", () => {
    expect(
      wants(
        chunk("VirtualList", [
          "/repo/src/lib/ui/list-cursor.svelte.ts",
          "/repo/src/lib/ui/VirtualList.svelte",
        ]),
      ),
    ).toBe(true);
    expect(wants(chunk("InspectorPane", ["C:\\repo\\src\\InspectorPane.svelte"]))).toBe(true);
  });

  it("is not given to chunks holding none of them, or a module whose path only ends the same", () => {
    expect(wants(chunk("CallsView", ["/repo/src/lib/calls/CallsView.svelte"]))).toBe(false);
    expect(wants(chunk("Other", ["/repo/src/lib/ui/MyVirtualList.svelte"]))).toBe(false);
  });

  it("fails the build when a listed module is in a chunk the page loads first", () => {
    expect(() => wants(chunk("app", ["/repo/src/lib/ui/VirtualList.svelte"]))).toThrow(/first chunk/);
    expect(() => wants(chunk("index", ["/repo/src/InspectorPane.svelte"], true))).toThrow(/first chunk/);
  });

  it("is V8's magic comment as the chunk's first line, its source map one line down", () => {
    const code = "const a=1;\nexport{a};\n//# sourceMappingURL=x.js.map";
    const lines = withCompileHint(code).split("\n");
    expect(lines[0]).toBe("//# allFunctionsCalledOnLoad");
    expect(lines.slice(1).join("\n")).toBe(code);
    const map = { version: 3, sources: ["a.ts"], names: [], mappings: ";AAAA,MAAM" };
    expect(JSON.parse(sourceMapWithCompileHint(JSON.stringify(map)))).toEqual({
      ...map,
      mappings: ";;AAAA,MAAM",
    });
  });
});
