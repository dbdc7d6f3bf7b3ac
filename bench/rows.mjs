// A benchmark row as the run prints it and the docs show it: its figures formatted by unit, whether it meets
// its goal, and the table of rows.

/**
 * Whether a row meets its goal: the `limits` it states (a ratio to its floor, a median, a maximum over the
 * samples), or else those its goal's words state in the forms the rows use ("ratio ≤ 1.5", "≤ 2.5× the
 * floor", "< 50 ms", "no task over 50 ms", "< 1%", "< 3 s", "< 400 MB"); undefined where neither says.
 */
export function goalMet(row) {
  const limits = row.limits ?? limitsInWords(row.goal, row.unit);
  if (!limits) return undefined;
  const checks = [];
  if (limits.ratio !== undefined) checks.push(row.ratio !== undefined && row.ratio <= limits.ratio);
  if (limits.value !== undefined) checks.push(row.median <= limits.value);
  if (limits.max !== undefined) checks.push(row.max <= limits.max);
  return checks.length > 0 ? checks.every(Boolean) : undefined;
}

function limitsInWords(goal, unit) {
  if (typeof goal !== "string") return undefined;
  const number = (text) => Number(text.replaceAll(",", ""));
  const limits = {};
  const ratio = /ratio [≤<] ([\d.]+)|[≤<] ([\d.]+)× the floor/.exec(goal);
  if (ratio) limits.ratio = number(ratio[1] ?? ratio[2]);
  const time = /(?:[≤<]|no task over) ([\d,.]+) (ms|s)\b/.exec(goal);
  if (time && (unit === "ms" || unit === undefined))
    limits.value = number(time[1]) * (time[2] === "s" ? 1000 : 1);
  const percent = /[≤<] ([\d.]+)%/.exec(goal);
  if (percent && unit === "ratio") limits.value = number(percent[1]) / 100;
  const sized = /^[≤<] ([\d,.]+) ?(MB|kB|×)$/.exec(goal);
  if (sized && unit === sized[2]) limits.value = number(sized[1]);
  return Object.keys(limits).length > 0 ? limits : undefined;
}

export function format(value, unit) {
  if (value === undefined) return "-";
  if (unit === "kB") return `${value.toFixed(1)} kB`;
  if (unit === "count") return String(Math.round(value));
  if (unit === "µs") return `${value.toFixed(2)} µs`;
  if (unit === "×") return `${value.toFixed(3)}×`;
  if (unit === "MB") return `${value.toFixed(0)} MB`;
  return value >= 100
    ? `${value.toFixed(0)} ms`
    : value >= 10
      ? `${value.toFixed(1)} ms`
      : `${value.toFixed(3)} ms`;
}

/** The rows as a Markdown table: median, spread, floor, ratio, goal and whether it is met. */
export function markdownTable(rows) {
  const header = [
    "subject",
    "work",
    "median",
    "spread (p25–p75)",
    "baseline (same run)",
    "baseline median",
    "ratio",
    "goal",
    "met",
  ];
  const percent = (value) => `${(value * 100).toFixed(2)}%`;
  const lines = rows.map((row) => [
    row.subject,
    row.work,
    row.unit === "ratio" ? percent(row.median) : format(row.median, row.unit),
    row.unit === "ratio"
      ? `${percent(row.p25)}–${percent(row.p75)}`
      : `${format(row.p25, row.unit)}–${format(row.p75, row.unit)}`,
    row.baseline ?? "-",
    row.baselineMedian === undefined ? "-" : format(row.baselineMedian, row.unit),
    row.ratio === undefined ? "-" : `${row.ratio.toFixed(2)}×`,
    row.goal ?? "",
    row.met === undefined ? "" : row.met ? "✓" : "✗",
  ]);
  const cell = (text) => String(text).replaceAll("|", "\\|");
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => cell(line[column]).length)),
  );
  const render = (cells) =>
    `| ${cells.map((text, column) => cell(text).padEnd(widths[column])).join(" | ")} |`;
  return [
    render(header),
    `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`,
    ...lines.map(render),
  ].join("\n");
}
