import type { Region } from '../src/enums.ts';
import { isRegion, type RegionConfig, regionConfig } from '../src/regions.ts';

/** The deployment's region, written into index.html by the server as a meta tag. */
export function currentRegion(): Region {
  const value = document.querySelector('meta[name="margin-region"]')?.getAttribute('content');
  return isRegion(value) ? value : 'us';
}

export function currentRegionConfig(): RegionConfig {
  return regionConfig(currentRegion());
}
