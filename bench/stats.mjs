/** Order statistics for benchmark samples: the median, and the spread as the 25th–75th percentiles. */
export function quantile(samples, q) {
  const sorted = [...samples].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

export function median(samples) {
  return quantile(samples, 0.5);
}

export function summarize(samples) {
  return {
    samples: samples.length,
    median: median(samples),
    p25: quantile(samples, 0.25),
    p75: quantile(samples, 0.75),
    min: Math.min(...samples),
    max: Math.max(...samples),
  };
}
