import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { UpdateUserSettingsInput, UserSettings } from '../../../src/schemas/user-settings.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';
import { useMe } from '../auth/session.ts';

/** What each change replaced on screen, put back if the server refuses the change. */
const shownBefore = new WeakMap<UpdateUserSettingsInput, UserSettings>();

/**
 * The account's theme, highlight colours and tooltip style (`settings.get`), and a change that
 * shows at once: the answer is taken from the change until the server's arrives, and put back if
 * the server refuses it. Undefined while signed out or still loading.
 */
export function useUserSettings(): {
  settings: UserSettings | undefined;
  update: (patch: UpdateUserSettingsInput) => void;
  /** True once the defaults are back; a refusal has been shown to the user. */
  reset: () => Promise<boolean>;
  resetting: boolean;
} {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data: me } = useMe();
  const key = trpc.settings.get.queryKey();
  const updateKey = trpc.settings.update.mutationKey();
  const { data: settings } = useQuery({ ...trpc.settings.get.queryOptions(), enabled: Boolean(me) });
  const save = useMutation(
    trpc.settings.update.mutationOptions({
      onMutate: (patch) => ({ before: shownBefore.get(patch) }),
      // Its own onError replaces the client's default one: the refusal is shown here too.
      onError: (error, _patch, context) => {
        if (context?.before) queryClient.setQueryData(key, context.before);
        notify.error(error);
      },
      onSuccess: () => {
        // An answer to an earlier change must not undo a later one still on its way, and the last
        // answer may have been read before another change was written (quick changes run side by
        // side): once none is on its way, the settings are read again.
        if (queryClient.isMutating({ mutationKey: updateKey }) <= 1)
          void queryClient.invalidateQueries({ queryKey: key });
      },
    }),
  );
  const resetMutation = useMutation(
    trpc.settings.reset.mutationOptions({ onSuccess: (saved) => queryClient.setQueryData(key, saved) }),
  );
  const { mutate } = save;
  const update = useCallback(
    (patch: UpdateUserSettingsInput) => {
      if (!me) return;
      // Shown before mutate (whose onMutate runs a tick later): a second quick change, such as a
      // stepper clicked twice, must start from the first one, not from what the server had.
      const shownKey = trpc.settings.get.queryKey();
      void queryClient.cancelQueries({ queryKey: shownKey });
      const before = queryClient.getQueryData<UserSettings>(shownKey);
      if (before) {
        shownBefore.set(patch, before);
        queryClient.setQueryData(shownKey, { ...before, ...patch } as UserSettings);
      }
      mutate(patch);
    },
    [me, mutate, queryClient, trpc],
  );
  return {
    settings: me ? settings : undefined,
    update,
    reset: () =>
      resetMutation.mutateAsync().then(
        () => true,
        () => false,
      ),
    resetting: resetMutation.isPending,
  };
}
