import type { Region } from '../src/enums.ts';
import { isRegion, type RegionConfig, regionConfig } from '../src/regions.ts';

/** Set by the server's render (client/ssr), which has no page to read it from. */
let serverRegion: Region | undefined;

export function setServerRegion(region: Region): void {
  serverRegion = region;
}

/** The deployment's region, written into index.html by the server as a meta tag. */
export function currentRegion(): Region {
  if (serverRegion) return serverRegion;
  const value = document.querySelector('meta[name="margin-region"]')?.getAttribute('content');
  return isRegion(value) ? value : 'us';
}

export function currentRegionConfig(): RegionConfig {
  return regionConfig(currentRegion());
}
