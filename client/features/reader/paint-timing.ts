/**
 * Runs `work` as a User Timing measure (`highlights:anchor`, `highlights:paint`), so the
 * Performance panel and the reader bench see where painting highlights spends its time.
 */
export function measured<T>(name: string, work: () => T): T {
  const start = performance.now();
  try {
    return work();
  } finally {
    performance.measure(name, { start, end: performance.now() });
  }
}
