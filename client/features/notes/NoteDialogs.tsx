import { useQuery } from '@tanstack/react-query';
import { AlertDialog } from 'radix-ui';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STORAGE_KEYS } from '../../../src/constants.ts';
import { pushRecentTag, splitTags } from '../../../src/rules/tags.ts';
import { Icon } from '../../components/icons/Icon.tsx';
import { SmallDialog } from '../../components/SmallDialog.tsx';
import { useTRPC } from '../../trpc.ts';
import { useStoredString, writePref } from './local-pref.ts';
import type { NoteActions } from './note-actions.ts';

/** A dialog the list or the bulk bar asks for, about the notes `ids`. */
export type NoteDialogRequest =
  | { kind: 'tags'; ids: string[]; tags: string[] }
  | { kind: 'folder'; ids: string[] }
  | { kind: 'deleteForever'; ids: string[] };

interface DialogProps {
  request: NoteDialogRequest;
  actions: NoteActions;
  onClose(): void;
  /** The action went through: the list clears its selection. */
  onDone(): void;
}

export function NoteDialogs(props: DialogProps) {
  if (props.request.kind === 'deleteForever') return <DeleteForeverDialog {...props} />;
  if (props.request.kind === 'folder') return <MoveToFolderDialog {...props} />;
  return <TagDialog {...props} initialTags={props.request.tags} />;
}

function DeleteForeverDialog({ request, actions, onClose, onDone }: DialogProps) {
  const { t } = useTranslation();
  return (
    <AlertDialog.Root open onOpenChange={(open) => !open && onClose()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog" data-testid="confirm-dialog">
          <AlertDialog.Title className="dialog-title">{t('notes.deleteForeverTitle')}</AlertDialog.Title>
          <AlertDialog.Description className="dialog-body">
            {t('notes.deleteForeverBody', { count: request.ids.length })}
          </AlertDialog.Description>
          <div className="dialog-actions">
            <AlertDialog.Cancel className="button">{t('common.cancel')}</AlertDialog.Cancel>
            <AlertDialog.Action
              className="button button-danger-solid"
              data-testid="confirm-delete-forever"
              onClick={() => {
                actions.deleteForever(request.ids);
                onDone();
              }}
            >
              {t('notes.deleteForever')}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/** Tag chips with remove, an input (Enter or comma adds) and the recent tags (max 4, newest first). */
function TagDialog({ request, actions, onClose, initialTags }: DialogProps & { initialTags: string[] }) {
  const { t } = useTranslation();
  const id = useId();
  const [tags, setTags] = useState(initialTags);
  const [draft, setDraft] = useState('');
  const recent = splitTags(useStoredString(STORAGE_KEYS.recentTags)).filter((tag) => !tags.includes(tag));
  const add = (raw: string) => {
    const added = splitTags(raw).filter((tag) => !tags.includes(tag));
    if (added.length === 0) return;
    let stored = localStorage.getItem(STORAGE_KEYS.recentTags);
    for (const tag of added) {
      actions.addTag(request.ids, tag);
      stored = pushRecentTag(stored, tag);
    }
    writePref(STORAGE_KEYS.recentTags, stored);
    setTags((prev) => [...prev, ...added]);
    setDraft('');
  };
  return (
    <SmallDialog title={t('notes.editTags')} testId="tag-dialog" onClose={onClose}>
      {tags.length > 0 && (
        <ul className="tag-chips" aria-label={t('nav.tag')}>
          {tags.map((tag) => (
            <li key={tag} className="tag-chip tag-chip-removable" dir="auto">
              #{tag}
              <button
                type="button"
                className="tag-chip-remove"
                aria-label={t('notes.removeTag', { tag })}
                onClick={() => {
                  actions.removeTag(request.ids, tag);
                  setTags((prev) => prev.filter((x) => x !== tag));
                }}
              >
                <Icon name="close" size={12} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="tag-form"
        onSubmit={(event) => {
          event.preventDefault();
          add(draft);
        }}
      >
        <label className="visually-hidden" htmlFor={`${id}-tag`}>
          {t('notes.addTag')}
        </label>
        <input
          id={`${id}-tag`}
          data-testid="tag-input"
          className="text-input"
          value={draft}
          autoComplete="off"
          placeholder={t('notes.addTagPlaceholder')}
          onChange={(event) => {
            const value = event.target.value;
            if (value.includes(',')) add(value);
            else setDraft(value);
          }}
        />
        <button type="submit" className="button button-primary" disabled={!draft.trim()}>
          {t('notes.addTag')}
        </button>
      </form>
      {recent.length > 0 && (
        <div className="tag-recent">
          <span className="muted">{t('notes.recentTags')}</span>
          {recent.map((tag) => (
            <button key={tag} type="button" className="tag-chip" dir="auto" onClick={() => add(tag)}>
              #{tag}
            </button>
          ))}
        </div>
      )}
    </SmallDialog>
  );
}

/** The folder tree as a flat, indented list of choices; "No folder" takes notes out of theirs. */
function MoveToFolderDialog({ request, actions, onClose, onDone }: DialogProps) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const folders = useQuery(trpc.folders.list.queryOptions());
  const choose = (folderId: string | null) => {
    actions.moveToFolder(request.ids, folderId);
    onDone();
    onClose();
  };
  const depthOf = (parentId: string | null, seen = 0): number => {
    const parent = folders.data?.find((f) => f.id === parentId);
    return parent && seen < 16 ? depthOf(parent.parentId, seen + 1) + 1 : 0;
  };
  return (
    <SmallDialog title={t('notes.moveToFolder')} testId="folder-dialog" onClose={onClose}>
      <ul className="folder-choices">
        <li>
          <button type="button" className="folder-choice" onClick={() => choose(null)}>
            <Icon name="inbox" />
            {t('notes.noFolder')}
          </button>
        </li>
        {folders.data?.map((folder) => (
          <li key={folder.id} style={{ paddingInlineStart: depthOf(folder.parentId) * 16 }}>
            <button type="button" className="folder-choice" dir="auto" onClick={() => choose(folder.id)}>
              <Icon name="folder" />
              {folder.name}
            </button>
          </li>
        ))}
      </ul>
    </SmallDialog>
  );
}
