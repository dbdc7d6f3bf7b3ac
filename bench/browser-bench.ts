/**
 * Benchmarks that run inside Chromium on the playground's own modules, exposed as `window.piBench` for
 * the runner. Each returns raw samples (milliseconds); the runner computes medians, spreads and ratios.
 */
import { syntheticFacts } from "./synthetic-session.ts";

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

declare global {
  interface Window {
    piBench: {
      modelView: typeof modelView;
      idbAppend: typeof idbAppend;
      sessionOpen: typeof sessionOpen;
      callAppend: typeof callAppend;
      plantCalls: typeof plantCalls;
      syntheticFacts: typeof syntheticFacts;
      plantSession: typeof plantSession;
      idbAppendTree: typeof idbAppendTree;
      treeOpen: typeof treeOpen;
      anatomyComposition: typeof anatomyComposition;
      timelineRender: typeof timelineRender;
    };
  }
}

window.piBench = {
  modelView,
  idbAppend,
  sessionOpen,
  callAppend,
  plantCalls,
  syntheticFacts,
  plantSession,
  idbAppendTree,
  treeOpen,
  anatomyComposition,
  timelineRender,
};
