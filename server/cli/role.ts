// The container's entry point: one image, two roles (server/role.ts); `server/cli/healthcheck.ts`
// probes by the same variable. Node itself stays PID 1 (no npm in between), so SIGTERM reaches
// the graceful shutdown.
import { ROLES, roleFromEnv } from '../role.ts';

if (import.meta.main) {
  const role = roleFromEnv();
  if (!role) {
    console.error(
      `Invalid configuration:\n  ROLE: expected one of ${ROLES.join(', ')}, got "${process.env.ROLE}"`,
    );
    process.exit(1);
  }
  const { runRole } = await import('../launcher.ts');
  await runRole(role);
}
