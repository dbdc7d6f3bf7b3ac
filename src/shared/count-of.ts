/** "1 fact", "3 facts", "2 replies": a count with its noun agreeing, for labels and the mirror's replies. */
export function countOf(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}
