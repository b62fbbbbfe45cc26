import { useTranslation } from 'react-i18next';
import { Flow } from '../../../src/enums.ts';
import type { PageSummary } from '../../../src/schemas/notes.ts';
import { Icon, type IconName } from '../../components/icons/Icon.tsx';
import { LibraryIcon } from './library-icons.tsx';
import type { RowHandlers } from './PageListItem.tsx';

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
      className="icon-button page-action"
      aria-label={props.label}
      title={props.label}
      aria-pressed={props.pressed}
      data-action={props.action}
      onClick={(event) => {
        event.stopPropagation();
        props.onClick();
      }}
    >
      {props.icon === 'restore' ? <LibraryIcon name="restore" /> : <Icon name={props.icon} />}
    </button>
  );
}

/** Later, Star, Archive, Tags and Trash; in the trash, Put back and Delete forever instead. */
export function RowActions({ page, inTrash, on }: { page: PageSummary; inTrash: boolean; on: RowHandlers }) {
  const { t } = useTranslation();
  if (inTrash) {
    return (
      <div className="page-actions" data-testid="page-actions">
        <ActionButton
          icon="restore"
          action="restore"
          label={t('library.restore')}
          onClick={() => on.restore(page)}
        />
        <ActionButton
          icon="trash"
          action="delete-forever"
          label={t('library.deleteForever')}
          onClick={() => on.deleteForever(page)}
        />
      </div>
    );
  }
  const archived = page.flow === Flow.archive;
  return (
    <div className="page-actions" data-testid="page-actions">
      <ActionButton
        icon="clock"
        action="later"
        label={t('nav.later')}
        pressed={page.flow === Flow.later}
        onClick={() => on.flow(page, Flow.later)}
      />
      <ActionButton
        icon="star"
        action="star"
        label={t('nav.star')}
        pressed={page.flow === Flow.shortlist}
        onClick={() => on.flow(page, Flow.shortlist)}
      />
      <ActionButton
        icon={archived ? 'unarchive' : 'archive'}
        action={archived ? 'unarchive' : 'archive'}
        label={archived ? t('nav.unarchive') : t('nav.archive')}
        onClick={() => on.flow(page, Flow.archive)}
      />
      <ActionButton
        icon="tag"
        action="tags"
        label={t('library.editTags')}
        onClick={() => on.editTags(page)}
      />
      <ActionButton
        icon="trash"
        action="trash"
        label={t('library.moveToTrash')}
        onClick={() => on.trash(page)}
      />
    </div>
  );
}
