import { AppError } from '../../../src/errors.ts';
import { isProMember } from '../../../src/rules/member-level.ts';
import { clock } from '../../clock.ts';
import type { AppConfig } from '../../config.ts';
import type { User } from '../../db/entities/index.ts';

/** The Open API follows membership: PRO members while membership is on, everyone while it is off. */
export function assertOpenApiAccess(config: Pick<AppConfig, 'membership'>, user: User): void {
  if (!config.membership) return;
  if (!isProMember(user.memberLevel, user.proExpiresAt, clock.now()))
    throw new AppError('FORBIDDEN', 'errors.onlyForPro');
}
