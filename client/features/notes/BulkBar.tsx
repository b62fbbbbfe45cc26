import { useTranslation } from 'react-i18next';
import { Flow } from '../../../src/enums.ts';
import { Icon, type IconName } from '../../components/icons/Icon.tsx';
import type { NoteDialogRequest } from './NoteDialogs.tsx';
import type { NoteActions } from './note-actions.ts';

function BulkButton(props: { icon: IconName; label: string; action: string; onClick(): void }) {
  return (
    <button type="button" className="button button-small" data-action={props.action} onClick={props.onClick}>
      <Icon name={props.icon} size={16} />
      <span className="bulk-label">{props.label}</span>
    </button>
  );
}

/** Acts on the selected notes: later, star, archive, folder, tag, trash (put back / delete in the trash). */
export function BulkBar({
  ids,
  inTrash,
  actions,
  onDialog,
  onClear,
}: {
  ids: string[];
  inTrash: boolean;
  actions: NoteActions;
  onDialog(request: NoteDialogRequest): void;
  onClear(): void;
}) {
  const { t } = useTranslation();
  const then = (act: () => void) => () => {
    act();
    onClear();
  };
  return (
    <div className="bulk-bar" role="toolbar" aria-label={t('notes.bulkActions')} data-testid="bulk-bar">
      <span className="bulk-count" data-count={ids.length}>
        {t('notes.selectedCount', { count: ids.length })}
      </span>
      {inTrash ? (
        <>
          <BulkButton
            icon="unarchive"
            action="restore"
            label={t('notes.restore')}
            onClick={then(() => actions.restore(ids))}
          />
          <BulkButton
            icon="trash"
            action="delete-forever"
            label={t('notes.deleteForever')}
            onClick={() => onDialog({ kind: 'deleteForever', ids })}
          />
        </>
      ) : (
        <>
          <BulkButton
            icon="clock"
            action="later"
            label={t('nav.later')}
            onClick={then(() => actions.setFlow(ids, Flow.later))}
          />
          <BulkButton
            icon="star"
            action="star"
            label={t('nav.star')}
            onClick={then(() => actions.setFlow(ids, Flow.shortlist))}
          />
          <BulkButton
            icon="archive"
            action="archive"
            label={t('nav.archive')}
            onClick={then(() => actions.setFlow(ids, Flow.archive))}
          />
          <BulkButton
            icon="folder"
            action="folder"
            label={t('notes.moveToFolder')}
            onClick={() => onDialog({ kind: 'folder', ids })}
          />
          <BulkButton
            icon="tag"
            action="tag"
            label={t('nav.tag')}
            onClick={() => onDialog({ kind: 'tags', ids, tags: [] })}
          />
          <BulkButton
            icon="trash"
            action="trash"
            label={t('notes.moveToTrash')}
            onClick={then(() => actions.trash(ids))}
          />
        </>
      )}
      <button type="button" className="icon-button" aria-label={t('notes.clearSelection')} onClick={onClear}>
        <Icon name="close" />
      </button>
    </div>
  );
}
