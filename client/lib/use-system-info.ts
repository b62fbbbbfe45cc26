import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../trpc.ts';

/** The server's facts (region, version, membership switch): they change only with a deploy. */
export function useSystemInfo() {
  const trpc = useTRPC();
  return useQuery({ ...trpc.system.info.queryOptions(), staleTime: 5 * 60_000 });
}
