import { useMutation } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';
import { useSignedOut } from '../auth/session.ts';

/** Sign out of this browser, or of every session; either way the user lands on /login. */
export function useSignOut() {
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const signedOut = useSignedOut();
  const leave = () => {
    navigate('/login');
    signedOut();
  };
  const here = useMutation(trpc.auth.logout.mutationOptions({ onSuccess: leave }));
  const everywhere = useMutation(
    trpc.auth.logoutEverywhere.mutationOptions({
      onSuccess: () => {
        notify.success('auth.loggedOutEverywhere');
        leave();
      },
    }),
  );
  return {
    signOut: () => here.mutate(),
    signOutEverywhere: () => everywhere.mutate(),
    pending: here.isPending || everywhere.isPending,
  };
}
