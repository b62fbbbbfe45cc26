// One image, two roles: ROLE=server (the default) runs the HTTP server, ROLE=worker the BullMQ
// workers. The container's entry (`server/cli/role.ts`) and health probe choose by it.
export const ROLES = ['server', 'worker'] as const;
export type Role = (typeof ROLES)[number];

export function roleFromEnv(env: NodeJS.ProcessEnv = process.env): Role | undefined {
  const role = env.ROLE?.trim() || 'server';
  return (ROLES as readonly string[]).includes(role) ? (role as Role) : undefined;
}
