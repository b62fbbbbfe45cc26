import { useTranslation } from 'react-i18next';
import { Flow } from '../../../src/enums.ts';
import type { NoteSummary } from '../../../src/schemas/notes.ts';
import { Icon, type IconName } from '../../components/icons/Icon.tsx';
import { NotesIcon } from './note-icons.tsx';
import type { RowHandlers } from './row-handlers.ts';

function ActionButton(props: {
  icon: IconName | 'restore';
  label: string;
  pressed?: boolean;
  action: string;
  onClick(): void;
}) {
  return (
    <button
      type="button"
      className="icon-button note-action"
      aria-label={props.label}
      title={props.label}
      aria-pressed={props.pressed}
      data-action={props.action}
      onClick={(event) => {
        event.stopPropagation();
        props.onClick();
      }}
    >
      {props.icon === 'restore' ? <NotesIcon name="restore" /> : <Icon name={props.icon} />}
    </button>
  );
}

/** Later, Star, Archive, Tags and Trash; in the trash, Put back and Delete forever instead. */
export function RowActions({ note, inTrash, on }: { note: NoteSummary; inTrash: boolean; on: RowHandlers }) {
  const { t } = useTranslation();
  if (inTrash) {
    return (
      <div className="note-actions" data-testid="note-actions">
        <ActionButton
          icon="restore"
          action="restore"
          label={t('notes.restore')}
          onClick={() => on.restore(note)}
        />
        <ActionButton
          icon="trash"
          action="delete-forever"
          label={t('notes.deleteForever')}
          onClick={() => on.deleteForever(note)}
        />
      </div>
    );
  }
  const archived = note.flow === Flow.archive;
  return (
    <div className="note-actions" data-testid="note-actions">
      <ActionButton
        icon="clock"
        action="later"
        label={t('nav.later')}
        pressed={note.flow === Flow.later}
        onClick={() => on.flow(note, Flow.later)}
      />
      <ActionButton
        icon="star"
        action="star"
        label={t('nav.star')}
        pressed={note.flow === Flow.shortlist}
        onClick={() => on.flow(note, Flow.shortlist)}
      />
      <ActionButton
        icon={archived ? 'unarchive' : 'archive'}
        action={archived ? 'unarchive' : 'archive'}
        label={archived ? t('nav.unarchive') : t('nav.archive')}
        onClick={() => on.flow(note, Flow.archive)}
      />
      <ActionButton icon="tag" action="tags" label={t('notes.editTags')} onClick={() => on.editTags(note)} />
      <ActionButton
        icon="trash"
        action="trash"
        label={t('notes.moveToTrash')}
        onClick={() => on.trash(note)}
      />
    </div>
  );
}
