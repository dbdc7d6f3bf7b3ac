import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { LAYERS } from "./layers.mjs";

/**
 * The layer rules of eslint.config.js, shown to fail: fixture sources placed (virtually) in a folder,
 * linted with the project's own configuration. Rules that need type information are off here, since the
 * fixtures are not files of the TypeScript project; the layer rules need none.
 */
const root = fileURLToPath(new URL("..", import.meta.url));
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    languageOptions: { parserOptions: { project: null, projectService: false } },
    rules: {
      "@typescript-eslint/no-floating-promises": "off",
      "@typescript-eslint/no-misused-promises": "off",
      "@typescript-eslint/switch-exhaustiveness-check": "off",
    },
  },
});

/** The layer rules' complaints about `source` as the file `path`. */
async function layerErrors(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: join(root, path) });
  return (result?.messages ?? [])
    .filter(
      (message) => message.ruleId === "no-restricted-imports" || message.ruleId === "no-restricted-syntax",
    )
    .map((message) => message.message);
}

// Loading the configuration and its parsers takes seconds on a busy machine.
describe("the layer rules", { timeout: 60_000 }, () => {
  it("refuse a widget importing domain code or view state, statically or through import()", async () => {
    expect(
      await layerErrors("src/lib/ui/Widget.ts", 'import { convertToLlm } from "../messages/convert.ts";\n'),
    ).toEqual([expect.stringMatching(/src\/lib\/ui may import only its own layer/)]);
    expect(
      await layerErrors(
        "src/lib/ui/Widget.ts",
        'export const load = () => import("../view-state/fact-selection.svelte.ts");\n',
      ),
    ).toEqual([expect.stringMatching(/^src\/lib\/ui may import only .* \(a dynamic import counts too\)$/)]);
    expect(
      await layerErrors(
        "src/lib/ui/Widget.ts",
        'export type Session = typeof import("../agent/chat-session.svelte.ts");\n',
      ),
    ).toEqual([expect.stringMatching(/\(a type's import\(\) counts too\)$/)]);
    // Its own folder is fine.
    expect(
      await layerErrors("src/lib/ui/Widget.ts", 'import { formatTokens } from "./format.ts";\n'),
    ).toEqual([]);
  });

  it("refuse a feature importing another feature through import(), and allow the layers below", async () => {
    expect(
      await layerErrors(
        "src/lib/inspector/Tabs.ts",
        'export const calls = () => import("../calls/CallsView.svelte");\n',
      ),
    ).toEqual([
      expect.stringMatching(/^src\/lib\/inspector may import only .* \(a dynamic import counts too\)$/),
    ]);
    expect(
      await layerErrors(
        "src/lib/inspector/Tabs.ts",
        'export const diff = () => import("../model-view/request-diff.ts");\nimport { getLayout } from "../ui/layout.svelte.ts";\n',
      ),
    ).toEqual([]);
    // The page's composition root may import any feature: that is where the inspector's tabs are registered.
    expect(
      await layerErrors(
        "src/inspector-tabs.ts",
        'export const calls = () => import("./lib/calls/CallsView.svelte");\n',
      ),
    ).toEqual([]);
  });

  it("keep browser code away from the server, dynamically too", async () => {
    expect(
      await layerErrors(
        "src/lib/agent/Leak.ts",
        'export const s = () => import("../../server/redact.ts");\n',
      ),
    ).toEqual([expect.stringMatching(/^Browser code must not import server code/)]);
  });

  it("place every folder of src/lib in a layer", () => {
    const folders = readdirSync(join(root, "src", "lib"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(LAYERS.flat().sort()).toEqual(folders);
  });
});
