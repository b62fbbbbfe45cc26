import { BUILD } from '../../../src/constants.ts';
import type { SystemInfo } from '../../../src/schemas/system.ts';
import type { AppConfig } from '../../config.ts';
import type { User } from '../../db/entities/index.ts';

export function systemInfo(config: AppConfig, user: User | null): SystemInfo {
  return {
    region: config.region,
    version: BUILD.version,
    signedIn: user !== null,
    membershipOn: config.membership,
    proTipsPerDay: config.membershipConfig.proTipsPerDay,
  };
}
