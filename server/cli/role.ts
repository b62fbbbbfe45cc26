// The container's entry point: one image, two roles. ROLE=server (the default) runs the HTTP
// server, ROLE=worker the BullMQ workers; `server/cli/healthcheck.ts` probes by the same variable.
// Node itself stays PID 1 (no npm in between), so SIGTERM reaches the graceful shutdown.
export const ROLES = ['server', 'worker'] as const;
export type Role = (typeof ROLES)[number];

export function roleFromEnv(env: NodeJS.ProcessEnv = process.env): Role | undefined {
  const role = env.ROLE?.trim() || 'server';
  return (ROLES as readonly string[]).includes(role) ? (role as Role) : undefined;
}

if (import.meta.main) {
  const role = roleFromEnv();
  if (!role) {
    console.error(
      `Invalid configuration:\n  ROLE: expected one of ${ROLES.join(', ')}, got "${process.env.ROLE}"`,
    );
    process.exit(1);
  }
  // Loaded here, not at the top: the health probe imports this file for roleFromEnv alone.
  const { runRole } = await import('../launcher.ts');
  await runRole(role);
}
