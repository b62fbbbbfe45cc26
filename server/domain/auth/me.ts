import { membershipState, remainingProDays } from '../../../src/rules/member-level.ts';
import { isAnonymousNickname } from '../../../src/rules/nickname.ts';
import type { Me } from '../../../src/schemas/auth.ts';
import { clock } from '../../clock.ts';
import type { User } from '../../db/entities/index.ts';

/** The signed-in user as the client sees it (entities never leave the server raw). */
export function toMe(user: User, now = clock.now()): Me {
  return {
    nickname: user.nickname,
    anonymous: isAnonymousNickname(user.nickname),
    accountId: user.accountId,
    email: user.email ?? null,
    hasPassword: Boolean(user.passwordHash),
    language: user.language ?? null,
    memberLevel: user.memberLevel,
    membership: membershipState(user.memberLevel, user.proExpiresAt, now),
    proExpiresAt: user.proExpiresAt ?? null,
    remainingProDays: remainingProDays(user.proExpiresAt, now),
    createdAt: user.createdAt,
  };
}
