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
  if (role === 'server') await import('../main.ts');
  else if (role === 'worker') await import('../../jobs/main.ts');
  else {
    console.error(
      `Invalid configuration:\n  ROLE: expected one of ${ROLES.join(', ')}, got "${process.env.ROLE}"`,
    );
    process.exit(1);
  }
}
