import { useMutation, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { AlertDialog } from 'radix-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { FOLDER_NAME_MAX, STORAGE_KEYS } from '../../../src/constants.ts';
import { zFolderName } from '../../../src/rules/folder-name.ts';
import { formatCount } from '../../../src/rules/format-count.ts';
import type { FolderView } from '../../../src/schemas/folders.ts';
import { Icon } from '../../components/icons/Icon.tsx';
import { useTRPC } from '../../trpc.ts';
import { useDropTarget } from './drop-target.ts';
import { useStoredList, writeStoredList } from './local-pref.ts';
import { NameDialog } from './NameDialog.tsx';
import { useNoteActions, useNoteListEdits } from './note-actions.ts';
import { NotesIcon } from './note-icons.tsx';
import { filtersPath, withFilters } from './note-list-url.ts';
import { RowMenu } from './RowMenu.tsx';

type FolderDialog =
  | { kind: 'create'; parentId: string | null }
  | { kind: 'rename'; folder: FolderView }
  | { kind: 'delete'; folder: FolderView }
  | null;

interface TreeContext {
  children: Map<string | null, FolderView[]>;
  expanded: readonly string[];
  toggle(id: string): void;
  hrefFor(id: string): string;
  activeId: string | null;
  onNavigate?: () => void;
  onDialog(dialog: FolderDialog): void;
}

function FolderRow({ folder, depth, tree }: { folder: FolderView; depth: number; tree: TreeContext }) {
  const { t, i18n } = useTranslation();
  const actions = useNoteActions();
  const drop = useDropTarget((ids) => actions.moveToFolder(ids, folder.id));
  const kids = tree.children.get(folder.id) ?? [];
  const open = tree.expanded.includes(folder.id);
  return (
    <li data-folder-id={folder.id}>
      <div className="nav-subitem" style={{ paddingInlineStart: depth * 14 }} {...drop}>
        {kids.length > 0 ? (
          <button
            type="button"
            className="icon-button nav-twisty"
            aria-expanded={open}
            aria-label={t(open ? 'notes.collapseFolder' : 'notes.expandFolder', { name: folder.name })}
            onClick={() => tree.toggle(folder.id)}
          >
            <NotesIcon name="chevron" size={14} />
          </button>
        ) : (
          <span className="nav-twisty" aria-hidden="true" />
        )}
        <Link
          href={tree.hrefFor(folder.id)}
          className="nav-sublink"
          aria-current={tree.activeId === folder.id ? 'page' : undefined}
          onClick={tree.onNavigate}
        >
          <Icon name="folder" size={15} />
          <span className="nav-label" dir="auto">
            {folder.name}
          </span>
          {folder.noteCount > 0 && (
            <span className="nav-count">{formatCount(folder.noteCount, i18n.language)}</span>
          )}
        </Link>
        <RowMenu
          label={t('notes.folderActions', { name: folder.name })}
          items={[
            {
              label: t('notes.newSubfolder'),
              onSelect: () => tree.onDialog({ kind: 'create', parentId: folder.id }),
            },
            { label: t('notes.renameFolder'), onSelect: () => tree.onDialog({ kind: 'rename', folder }) },
            {
              label: t('notes.deleteFolder'),
              onSelect: () => tree.onDialog({ kind: 'delete', folder }),
              danger: true,
            },
          ]}
        />
      </div>
      {open && kids.length > 0 && (
        <ul className="nav-sublist">
          {kids.map((kid) => (
            <FolderRow key={kid.id} folder={kid} depth={depth + 1} tree={tree} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** The spec's folder-name rules, as translated messages (errors.folderName*). */
function folderNameProblem(name: string, t: TFunction): string | null {
  const result = zFolderName.safeParse(name);
  return result.success
    ? null
    : t(result.error.issues[0]?.message ?? 'errors.invalidInput', { max: FOLDER_NAME_MAX });
}

/** Folder: the folder tree (expanded folders remembered), click filters, drop notes to file them. */
export function FolderSection({
  activeFolderId,
  onNavigate,
}: {
  activeFolderId: string | null;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const cache = useNoteListEdits();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const folders = useQuery(trpc.folders.list.queryOptions());
  const expanded = useStoredList(STORAGE_KEYS.expandedFolders);
  const [dialog, setDialog] = useState<FolderDialog>(null);
  const create = useMutation(trpc.folders.create.mutationOptions({ onSuccess: cache.refresh }));
  const rename = useMutation(trpc.folders.rename.mutationOptions({ onSuccess: cache.refresh }));
  const remove = useMutation(trpc.folders.delete.mutationOptions({ onSuccess: cache.refresh }));

  const children = new Map<string | null, FolderView[]>();
  const ids = new Set(folders.data?.map((f) => f.id));
  for (const folder of folders.data ?? []) {
    const parent = folder.parentId && ids.has(folder.parentId) ? folder.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), folder]);
  }
  const tree: TreeContext = {
    children,
    expanded,
    toggle: (id) =>
      writeStoredList(
        STORAGE_KEYS.expandedFolders,
        expanded.includes(id) ? expanded.filter((x) => x !== id) : [...expanded, id],
      ),
    hrefFor: (id) =>
      // A folder chosen in the sidebar is shown whole: the view goes back to All.
      location === '/' ? withFilters(search, { folderId: id, nav: 'all' }) : filtersPath({ folderId: id }),
    activeId: activeFolderId,
    onNavigate,
    onDialog: setDialog,
  };
  const validate = (name: string) => folderNameProblem(name, t);
  const roots = children.get(null) ?? [];

  return (
    <>
      <ul className="nav-sublist" data-testid="folder-tree">
        {roots.map((folder) => (
          <FolderRow key={folder.id} folder={folder} depth={0} tree={tree} />
        ))}
        <li>
          <button
            type="button"
            className="nav-sublink nav-add"
            data-testid="new-folder"
            onClick={() => setDialog({ kind: 'create', parentId: null })}
          >
            <NotesIcon name="plus" size={15} />
            <span className="nav-label">{t('notes.newFolder')}</span>
          </button>
        </li>
      </ul>
      {dialog?.kind === 'create' && (
        <NameDialog
          title={dialog.parentId ? t('notes.newSubfolder') : t('notes.newFolder')}
          label={t('notes.folderName')}
          submitLabel={t('common.save')}
          testId="folder-name-dialog"
          validate={validate}
          onSubmit={(name) =>
            create.mutateAsync({ name, parentId: dialog.parentId }).then(() => {
              if (dialog.parentId && !expanded.includes(dialog.parentId)) tree.toggle(dialog.parentId);
            })
          }
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog
          title={t('notes.renameFolder')}
          label={t('notes.folderName')}
          initial={dialog.folder.name}
          submitLabel={t('common.save')}
          testId="folder-name-dialog"
          validate={validate}
          onSubmit={(name) => rename.mutateAsync({ id: dialog.folder.id, name })}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <AlertDialog.Root open onOpenChange={(open) => !open && setDialog(null)}>
          <AlertDialog.Portal>
            <AlertDialog.Overlay className="dialog-overlay" />
            <AlertDialog.Content className="dialog" data-testid="confirm-dialog">
              <AlertDialog.Title className="dialog-title">
                {t('notes.deleteFolderTitle', { name: dialog.folder.name })}
              </AlertDialog.Title>
              <AlertDialog.Description className="dialog-body">
                {t('notes.deleteFolderBody')}
              </AlertDialog.Description>
              <div className="dialog-actions">
                <AlertDialog.Cancel className="button">{t('common.cancel')}</AlertDialog.Cancel>
                <AlertDialog.Action
                  className="button button-danger-solid"
                  onClick={() => {
                    const id = dialog.folder.id;
                    remove.mutate({ id });
                    if (activeFolderId === id && location === '/')
                      navigate(withFilters(search, { folderId: null }));
                  }}
                >
                  {t('common.delete')}
                </AlertDialog.Action>
              </div>
            </AlertDialog.Content>
          </AlertDialog.Portal>
        </AlertDialog.Root>
      )}
    </>
  );
}
