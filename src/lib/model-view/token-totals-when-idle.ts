import { whenIdle } from "../ui/prefetch.ts";
import type { ModelView } from "./project.ts";

/** Runs `work` in a later idle period; returns the way to call it off. */
export type IdleScheduler = (work: () => void) => () => void;

type TotalsCode = Pick<typeof import("./view-tokens.ts"), "viewFactTokens" | "viewModelTokens">;

/**
 * Works out the inspector headers' token totals of `view` ahead of time, so that opening the inspector
 * does not wait for them: the estimated tokens of every fact, then of every model message. The first
 * totals of a session are a pass over all of it (later ones add only what is new), so each pass has an
 * idle period of its own: at 100,000 facts the two together were one task of a tenth of a second. The
 * estimator's code is fetched in the first period; the initial JS does not carry it. Returns the way to
 * call off what has not run yet (a newer view, a closed session).
 */
export function totalTokensWhenIdle(
  view: ModelView,
  {
    idle = whenIdle,
    load = () => import("./view-tokens.ts"),
  }: { idle?: IdleScheduler; load?: () => Promise<TotalsCode> } = {},
): () => void {
  let cancelled = false;
  let cancel = idle(
    () =>
      void load().then(({ viewFactTokens, viewModelTokens }) => {
        if (cancelled) return;
        viewFactTokens(view);
        cancel = idle(() => viewModelTokens(view));
      }),
  );
  return () => {
    cancelled = true;
    cancel();
  };
}
