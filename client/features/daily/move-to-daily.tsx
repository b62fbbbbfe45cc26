import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DropdownMenu } from 'radix-ui';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { TOAST } from '../../../src/constants.ts';
import type { DailyNote } from '../../../src/schemas/daily.ts';
import { toastWith } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';

export type MoveTarget = 'today' | 'new';

/**
 * Moves highlights into today's daily note (appended) or into a new daily note of today, then
 * toasts with a link to /daily. Answers the daily note written, or null when the move failed
 * (the failure is toasted by the app's default mutation handler).
 */
export function useMoveToDaily(): (ids: string[], target: MoveTarget) => Promise<DailyNote | null> {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { mutateAsync } = useMutation(trpc.daily.moveHighlights.mutationOptions());
  return useCallback(
    async (ids, target) => {
      try {
        const note = await mutateAsync({ ids, target });
        void queryClient.invalidateQueries({ queryKey: trpc.daily.pathKey() });
        toastWith((toast) =>
          toast.success(
            <span className="daily-moved-toast" data-testid="daily-moved-toast">
              {t(target === 'today' ? 'daily.movedToToday' : 'daily.movedToNew', { count: ids.length })}{' '}
              <Link href="/daily">{t('daily.openDaily')}</Link>
            </span>,
            { duration: TOAST.defaultMs },
          ),
        );
        return note;
      } catch {
        return null;
      }
    },
    [mutateAsync, queryClient, trpc, t],
  );
}

/** A "Move to daily note" menu button offering today's note or a new daily note. */
export function MoveToDailyButton({
  ids,
  className = 'button button-small',
  onMoved,
}: {
  ids: string[];
  className?: string;
  onMoved?(note: DailyNote, target: MoveTarget): void;
}) {
  const { t } = useTranslation();
  const move = useMoveToDaily();
  async function moveTo(target: MoveTarget) {
    const note = await move(ids, target);
    if (note) onMoved?.(note, target);
  }
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className={className} disabled={ids.length === 0} data-testid="move-to-daily">
        {t('daily.moveTo')}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
          <DropdownMenu.Item
            className="menu-item"
            data-testid="move-to-daily-today"
            onSelect={() => void moveTo('today')}
          >
            {t('daily.moveToToday')}
          </DropdownMenu.Item>
          <DropdownMenu.Item
            className="menu-item"
            data-testid="move-to-daily-new"
            onSelect={() => void moveTo('new')}
          >
            {t('daily.moveToNew')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
