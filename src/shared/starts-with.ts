/**
 * Whether `list` begins with every item of `prefix`, item for item by identity. Lists of facts are
 * replaced, never changed in place, and an edited fact is a new object: a list that passes only grew at
 * its end, so what was derived from `prefix` still holds and only the new items need adding.
 */
export function startsWith<Item>(list: readonly Item[], prefix: readonly Item[]): boolean {
  if (list === prefix) return true;
  if (list.length < prefix.length) return false;
  // From the end: an edit is most often near it, so a changed list is told quickly.
  for (let index = prefix.length - 1; index >= 0; index--) if (list[index] !== prefix[index]) return false;
  return true;
}
