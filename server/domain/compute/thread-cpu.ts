/**
 * CPU time this thread has used, in milliseconds. Budgets count it rather than wall time: the
 * pool's threads run below the server's priority, so on a busy machine they wait for a core,
 * and that wait is not the user's work.
 */
export function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}
