import { readSettings } from "../src/lib/agent/session-settings.ts";
import { chainEntries } from "../src/lib/messages/entries.ts";
import { exportSession } from "../src/lib/sessions/export-format.ts";
import { buildHtmlExport, type ViewerAssets } from "../src/lib/sessions/html-export.ts";
import { syntheticFacts } from "./synthetic-session.ts";

/**
 * A synthetic session of `count` facts exported twice by the page's own code: as its JSON export, and as
 * the HTML file that embeds that export beside the built viewer (`assets`, read from dist/viewer/).
 */
export async function htmlExportFiles(
  count: number,
  assets: ViewerAssets,
): Promise<{ json: string; html: string; lastText: string }> {
  const facts = syntheticFacts(count);
  const entries = chainEntries(facts, null);
  const title = `Benchmark session of ${count} facts`;
  const json = exportSession(
    {
      id: `bench-${count}`,
      title,
      titleIsCustom: true,
      createdAt: 0,
      settings: readSettings({}),
      entries,
      leafId: entries.at(-1)?.id ?? null,
      calls: [],
    },
    "json",
    0,
  ).text;
  const last = facts.at(-1);
  const lastText =
    last && "content" in last && Array.isArray(last.content)
      ? (last.content.find((block) => block.type === "text")?.text ?? "")
      : "";
  return { json, html: await buildHtmlExport(json, assets), lastText };
}
