/**
 * Keeps `container`'s pieces told how many characters a line holds (see `PieceLines`), from when its code
 * has loaded: only a text long enough to come in pieces needs it, so it stays out of the initial JS.
 * Returns the way to stop (an effect's teardown), before or after the code arrived.
 */
export function followLineLength(container: HTMLElement): () => void {
  let stopped = false;
  let lines: { disconnect(): void } | undefined;
  void import("./piece-lines.ts").then(({ PieceLines }) => {
    if (!stopped) lines = new PieceLines(container);
  });
  return () => {
    stopped = true;
    lines?.disconnect();
  };
}
