import fc from "fast-check";

/**
 * Strings of any Unicode for property tests of what JSON carries: graphemes, lone surrogates and binary
 * strings, and runs of the characters JSON escapes or splits badly (surrogate pairs, quotes, controls).
 */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: "binary" }),
  fc
    .array(fc.constantFrom("\u{1F600}", "\ud800", "\udc00", '"', "\\", "\n", "\u0000", "é", "a"), {
      maxLength: 40,
    })
    .map((parts) => parts.join("")),
);

/**
 * JSON-like values as messages and session entries carry them (undefined in places, as a value read back
 * from anywhere may hold), with keys from `keys`.
 */
export function jsonLike(keys: fc.Arbitrary<string> = anyText): fc.Arbitrary<unknown> {
  return fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      anyText,
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(keys, tie("value"), { maxKeys: 4 }),
    ),
  })).value;
}
