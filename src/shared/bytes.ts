/** "20 MB", "64 kB", "12.3 MB": sizes for people, in binary units. */
export function formatBytes(bytes: number): string {
  const round = (value: number) => Number(value.toFixed(1));
  if (bytes >= 1024 ** 3) return `${round(bytes / 1024 ** 3)} GB`;
  if (bytes >= 1024 ** 2) return `${round(bytes / 1024 ** 2)} MB`;
  if (bytes >= 1024) return `${round(bytes / 1024)} kB`;
  return `${bytes} bytes`;
}
