/**
 * The tab a key moves to in a row of tabs, as the tabs pattern expects: the arrows move to the next or
 * previous tab (wrapping around), Home and End to the first and last; undefined for any other key.
 */
export function tabAfterKey<T>(key: string, tabs: readonly T[], current: T): T | undefined {
  const index = tabs.indexOf(current);
  const count = tabs.length;
  if (count === 0) return undefined;
  switch (key) {
    case "ArrowRight":
      return tabs[(index + 1) % count];
    case "ArrowLeft":
      return tabs[(index - 1 + count) % count];
    case "Home":
      return tabs[0];
    case "End":
      return tabs[count - 1];
    default:
      return undefined;
  }
}
