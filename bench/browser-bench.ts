/**
 * Benchmarks that run inside Chromium on the playground's own modules, exposed as `window.piBench` for
 * the runner. Each returns raw samples (milliseconds); the runner computes medians, spreads and ratios.
 */
import { loadMessageKinds } from "../src/lib/messages/kinds/loaded.ts";
import { searchTextOf } from "../src/lib/messages/search-text.ts";
import { compileQuery, matchesText } from "../src/lib/ui/text-search.ts";
import { syntheticFacts } from "./synthetic-session.ts";
import { prepareAgentFloor, prepareAgentStreamFloor, promptAgentFloor } from "./agent-floor.ts";

import { anatomyComposition, modelView, timelineRender } from "./projection-bench.ts";
import {
  callAppend,
  idbAppend,
  idbAppendTree,
  plantCalls,
  plantSession,
  sessionOpen,
  treeOpen,
} from "./storage-bench.ts";

// The page loads the message kinds while storage opens; every benchmark waits for them before it runs (the
// bundle is a classic script: no top-level await).
const kindsLoaded = loadMessageKinds();

function afterKinds<Args extends unknown[], Result>(
  run: (...args: Args) => Result | Promise<Result>,
): (...args: Args) => Promise<Result> {
  return async (...args) => {
    await kindsLoaded;
    return await run(...args);
  };
}

/**
 * The floor of a search in the facts: the same query over the same facts' searchable text (the planted
 * session's, but for the app's own first message), in one plain loop. The texts are built before the
 * clock starts, as the app builds each fact's once and keeps it.
 */
function searchFloor(count: number, typed: string): { ms: number; matches: number } {
  const texts = syntheticFacts(count)
    .slice(1)
    .map((fact) => searchTextOf(fact).texts);
  const query = compileQuery(typed);
  if (!query) throw new Error(`"${typed}" is no query`);
  const started = performance.now();
  let matches = 0;
  for (const [names, body] of texts) if (matchesText(query, names) || matchesText(query, body)) matches++;
  return { ms: performance.now() - started, matches };
}

const bench = {
  searchFloor: afterKinds(searchFloor),
  modelView: afterKinds(modelView),
  idbAppend: afterKinds(idbAppend),
  sessionOpen: afterKinds(sessionOpen),
  callAppend: afterKinds(callAppend),
  plantCalls: afterKinds(plantCalls),
  syntheticFacts: afterKinds(syntheticFacts),
  plantSession: afterKinds(plantSession),
  idbAppendTree: afterKinds(idbAppendTree),
  treeOpen: afterKinds(treeOpen),
  anatomyComposition: afterKinds(anatomyComposition),
  timelineRender: afterKinds(timelineRender),
  prepareAgentFloor,
  promptAgentFloor,
  prepareAgentStreamFloor,
};

declare global {
  interface Window {
    piBench: typeof bench;
  }
}

window.piBench = bench;
