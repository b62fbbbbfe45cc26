import { useQueryClient } from '@tanstack/react-query';
import { DropdownMenu } from 'radix-ui';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { TOAST } from '../../../src/constants.ts';
import type { DailyMoved } from '../../../src/schemas/daily.ts';
import { Icon } from '../../components/icons/Icon.tsx';
import { notify, toastWith } from '../../lib/notify.ts';
import { useTRPC, useTRPCClient } from '../../trpc.ts';

export type MoveTarget = 'today' | 'new';

/**
 * Moves highlights into today's daily note (appended) or into a new daily note of today, then
 * toasts with a link to /daily and Undo (which takes the quotes out of the daily note again).
 * Answers what the move wrote, or null when it failed (the failure is toasted).
 */
export function useMoveToDaily(): (ids: string[], target: MoveTarget) => Promise<DailyMoved | null> {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  return useCallback(
    async (ids, target) => {
      const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.daily.pathKey() });
      async function undo(moveId: string) {
        try {
          await client.daily.undoMove.mutate({ moveId });
          notify.success('daily.moveUndone');
        } catch (error) {
          notify.error(error, 'toast.operationFailed');
        } finally {
          refresh();
        }
      }
      let moved: DailyMoved;
      try {
        moved = await client.daily.moveHighlights.mutate({ ids, target });
      } catch (error) {
        notify.error(error, 'toast.operationFailed');
        return null;
      }
      refresh();
      toastWith((toast) =>
        toast.success(
          <span className="daily-moved-toast" data-testid="daily-moved-toast">
            {t(target === 'today' ? 'daily.movedToToday' : 'daily.movedToNew', { count: ids.length })}{' '}
            <Link href="/daily">{t('daily.openDaily')}</Link>
          </span>,
          {
            duration: TOAST.defaultMs,
            action: { label: t('highlights.undo'), onClick: () => void undo(moved.moveId) },
          },
        ),
      );
      return moved;
    },
    [client, queryClient, trpc, t],
  );
}

/**
 * "Move to daily note": a menu of today's note or a new daily note, opened from the keyboard
 * too (Enter, Space or ↓; arrows between the two; Esc or a choice gives the focus back).
 * `compact` shows only an icon, named for screen readers and on hover.
 */
export function MoveToDailyButton({
  ids,
  className,
  compact = false,
  onMoved,
}: {
  ids: string[];
  className?: string;
  compact?: boolean;
  onMoved?(moved: DailyMoved, target: MoveTarget): void;
}) {
  const { t } = useTranslation();
  const move = useMoveToDaily();
  async function moveTo(target: MoveTarget) {
    const moved = await move(ids, target);
    if (moved) onMoved?.(moved, target);
  }
  const label = t('daily.moveTo');
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        className={className ?? (compact ? 'icon-button move-to-daily-compact' : 'button')}
        disabled={ids.length === 0}
        data-testid="move-to-daily"
        aria-label={compact ? label : undefined}
        title={compact ? label : undefined}
      >
        {compact ? <Icon name="calendar" size={16} /> : label}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className="menu"
          align="end"
          sideOffset={6}
          collisionPadding={8}
          data-testid="move-to-daily-menu"
        >
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
