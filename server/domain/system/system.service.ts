import { BUILD } from '../../../src/constants.ts';
import { EXTENSION_VERSION } from '../../../src/schemas/extension.ts';
import type { SystemInfo } from '../../../src/schemas/system.ts';
import type { AppConfig } from '../../config.ts';
import type { User } from '../../db/entities/index.ts';
import { builtExtensionPackages, builtPluginPackages } from './built-packages.ts';

export function systemInfo(config: AppConfig, user: User | null): SystemInfo {
  return {
    region: config.region,
    version: BUILD.version,
    signedIn: user !== null,
    membershipOn: config.membership,
    proTipsPerDay: config.membershipConfig.proTipsPerDay,
    extension: {
      version: EXTENSION_VERSION,
      minVersion: config.extensionMinVersion,
      downloads: builtExtensionPackages(config.packagesDir),
    },
    plugins: builtPluginPackages(config.packagesDir),
  };
}
