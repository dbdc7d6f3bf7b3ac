import fc from "fast-check";

/**
 * Random messages for conformance fuzzing against pi's own code: every role pi's coding agent knows, the
 * playground's own roles and roles nobody knows, with the odd shapes pi's code accepts without checking
 * (missing timestamps and content, empty strings, blocks of unknown types, holes, unknown stop reasons).
 * Values are plain JSON-like data, as a session file holds them.
 */

export const shortText = fc.string({ maxLength: 8 });
/** Ids as pi writes them, the empty id an OpenAI-compatible server's tool call can carry, and a few others. */
export const toolCallId = fc.constantFrom("", "call_1", "call_2", "toolu_01", "call|item");

const timestamp = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 2_000_000_000_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: -2_000_000_000_000, max: -1 }) },
);

/** A record whose keys in `optional` may be missing; those in `undefinedable` may be present as undefined. */
function message<T extends Record<string, unknown>>(
  shape: { [K in keyof T]: fc.Arbitrary<T[K]> },
  optional: (keyof T)[] = [],
): fc.Arbitrary<T> {
  const requiredKeys = (Object.keys(shape) as (keyof T)[]).filter((key) => !optional.includes(key));
  return fc.record(shape, { requiredKeys }) as fc.Arbitrary<T>;
}

export const textBlock = fc.record({ type: fc.constant("text"), text: shortText });
const imageBlock = fc.record({
  type: fc.constant("image"),
  data: fc.constantFrom("iVBORw0KGgo=", ""),
  mimeType: fc.constantFrom("image/png", "image/jpeg"),
});
const thinkingBlock = fc.record(
  { type: fc.constant("thinking"), thinking: shortText, thinkingSignature: shortText },
  { requiredKeys: ["type", "thinking"] },
);
export const toolCallBlock = fc.record({
  type: fc.constant("toolCall"),
  id: toolCallId,
  name: fc.constantFrom("calculate", "bash", ""),
  arguments: fc.dictionary(fc.constantFrom("a", "b"), fc.oneof(shortText, fc.integer())),
});
/** A block of a type no version of pi's types has (a later pi, an extension, a server's own). */
export const unknownBlock = fc.record({ type: fc.constantFrom("video", "citation", ""), value: shortText });

/** Lists with the odd elements pi's convertToLlm passes through: holes, null, unknown blocks. */
function oddList<T>(element: fc.Arbitrary<T>): fc.Arbitrary<(T | null | undefined)[]> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.array(element, { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.sparseArray(element, { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc.array(fc.oneof(element, fc.constant(null), unknownBlock as fc.Arbitrary<T>), {
        maxLength: 3,
      }),
    },
  );
}

const userContent = fc.oneof(shortText, fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 3 }));
const usage = fc.record(
  {
    input: fc.nat(1000),
    output: fc.nat(1000),
    cacheRead: fc.nat(1000),
    cacheWrite: fc.nat(1000),
    totalTokens: fc.nat(4000),
    cost: fc.record({
      input: fc.double({ min: 0, max: 1, noNaN: true }),
      output: fc.double({ min: 0, max: 1, noNaN: true }),
      cacheRead: fc.constant(0),
      cacheWrite: fc.constant(0),
      total: fc.double({ min: 0, max: 2, noNaN: true }),
    }),
  },
  // Usage from older pi versions and from servers that report less: no cost, no total.
  { requiredKeys: ["input", "output", "cacheRead", "cacheWrite"] },
);
export const stopReason = fc.constantFrom("stop", "length", "toolUse", "error", "aborted", "refusal");

export const systemMessage = message(
  {
    role: fc.constant("system"),
    content: fc.oneof(shortText, fc.array(textBlock, { maxLength: 2 })),
    timestamp,
  },
  ["timestamp"],
);
export const userMessage = message({ role: fc.constant("user"), content: userContent, timestamp }, [
  "timestamp",
]);
export const assistantMessage = message(
  {
    role: fc.constant("assistant"),
    content: fc.oneof(
      { weight: 9, arbitrary: oddList(fc.oneof(textBlock, thinkingBlock, toolCallBlock)) },
      // Not a list at all: pi passes it on as it is.
      { weight: 1, arbitrary: fc.oneof(shortText, fc.constant(null)) },
    ),
    api: fc.constantFrom("anthropic-messages", "openai-completions"),
    provider: fc.constantFrom("anthropic", "openai"),
    model: fc.constantFrom("claude-test", "gpt-test"),
    usage,
    stopReason,
    errorMessage: shortText,
    timestamp,
  },
  ["errorMessage", "timestamp"],
);
export const toolResultMessage = message(
  {
    role: fc.constant("toolResult"),
    toolCallId,
    toolName: fc.constantFrom("calculate", "bash", ""),
    content: fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 2 }),
    isError: fc.boolean(),
    timestamp,
  },
  ["timestamp"],
);
export const bashExecutionMessage = message(
  {
    role: fc.constant("bashExecution"),
    command: fc.oneof(shortText, fc.constant("")),
    output: shortText,
    exitCode: fc.oneof(fc.integer({ min: -1, max: 255 }), fc.constant(null), fc.constant(undefined)),
    cancelled: fc.boolean(),
    truncated: fc.boolean(),
    fullOutputPath: fc.constantFrom("/tmp/out.log", ""),
    excludeFromContext: fc.boolean(),
    timestamp,
  },
  ["exitCode", "fullOutputPath", "excludeFromContext", "timestamp"],
);
export const customMessage = message(
  {
    role: fc.constant("custom"),
    customType: fc.constantFrom("", "reminder", "ext:state"),
    content: userContent,
    display: fc.boolean(),
    details: fc.oneof(fc.constant(undefined), fc.record({ n: fc.nat(9) })),
    timestamp,
  },
  ["details", "timestamp"],
);
export const branchSummaryMessage = message(
  {
    role: fc.constant("branchSummary"),
    summary: shortText,
    fromId: fc.oneof(fc.constant(null), fc.constantFrom("root", "a1b2c3d4")),
    timestamp,
  },
  ["timestamp"],
);
export const compactionSummaryMessage = message(
  { role: fc.constant("compactionSummary"), summary: shortText, tokensBefore: fc.nat(100_000), timestamp },
  ["tokensBefore", "timestamp"],
);
/** The playground's own roles, which pi's convertToLlm drops, as the playground's default policies do. */
const playgroundMessage = fc.oneof(
  message({ role: fc.constant("notification"), text: shortText, timestamp }),
  message({
    role: fc.constant("approval_request"),
    action: shortText,
    status: fc.constant("pending"),
    timestamp,
  }),
  message({
    role: fc.constant("progress"),
    text: shortText,
    fraction: fc.double({ min: 0, max: 1 }),
    timestamp,
  }),
);
/** Roles nobody registered: a later pi's, an extension's, a v2 file's `hookMessage` read without migration. */
const unknownRoleMessage = message({
  role: fc.constantFrom("hookMessage", "checkpointMessage", ""),
  content: shortText,
  timestamp,
});

export const anyMessage: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  systemMessage,
  userMessage,
  assistantMessage,
  toolResultMessage,
  bashExecutionMessage,
  customMessage,
  branchSummaryMessage,
  compactionSummaryMessage,
  playgroundMessage,
  unknownRoleMessage,
);
