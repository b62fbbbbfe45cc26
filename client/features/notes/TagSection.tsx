import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { formatCount } from '../../../src/rules/format-count.ts';
import { useTRPC } from '../../trpc.ts';
import { useDropTarget } from './drop-target.ts';
import { NameDialog } from './NameDialog.tsx';
import { useNoteActions, useNoteListEdits } from './note-actions.ts';
import { filtersPath, withFilters } from './note-list-url.ts';
import { RowMenu } from './RowMenu.tsx';

type TagDialog = { kind: 'rename' | 'merge'; tag: string } | null;

function TagRow(props: {
  tag: string;
  notes: number;
  href: string;
  active: boolean;
  onNavigate?: () => void;
  onDialog(dialog: TagDialog): void;
}) {
  const { t, i18n } = useTranslation();
  const actions = useNoteActions();
  const drop = useDropTarget((ids) => actions.addTag(ids, props.tag));
  return (
    <li className="nav-subitem" {...drop} data-tag={props.tag}>
      <Link
        href={props.href}
        className="nav-sublink"
        aria-current={props.active ? 'page' : undefined}
        onClick={props.onNavigate}
      >
        <span className="nav-label" dir="auto">
          #{props.tag}
        </span>
        <span className="nav-count">{formatCount(props.notes, i18n.language)}</span>
      </Link>
      <RowMenu
        label={t('notes.tagActions', { tag: props.tag })}
        items={[
          {
            label: t('notes.renameTag'),
            onSelect: () => props.onDialog({ kind: 'rename', tag: props.tag }),
          },
          { label: t('notes.mergeTag'), onSelect: () => props.onDialog({ kind: 'merge', tag: props.tag }) },
        ]}
      />
    </li>
  );
}

/** Tag: every tag with its note count; click filters, drop notes to tag them, rename or merge. */
export function TagSection({ activeTags, onNavigate }: { activeTags: string[]; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const cache = useNoteListEdits();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const tags = useQuery(trpc.notes.tags.queryOptions());
  const [dialog, setDialog] = useState<TagDialog>(null);
  const [mergeTarget, setMergeTarget] = useState('');
  const renamed = (from: string, to: string) => {
    cache.refresh();
    if (location === '/' && activeTags.includes(from)) {
      navigate(withFilters(search, { tags: activeTags.map((x) => (x === from ? to : x)) }), {
        replace: true,
      });
    }
  };
  const rename = useMutation(trpc.notes.renameTag.mutationOptions());
  const merge = useMutation(trpc.notes.mergeTags.mutationOptions());
  if (!tags.data) return null;
  if (tags.data.length === 0) return <p className="nav-empty muted">{t('notes.noTags')}</p>;
  const others = dialog ? tags.data.filter((x) => x.tag !== dialog.tag) : [];
  return (
    <>
      <ul className="nav-sublist" data-testid="tag-list">
        {tags.data.map(({ tag, notes }) => (
          <TagRow
            key={tag}
            tag={tag}
            notes={notes}
            // As a folder: the tag's notes in All, whatever view was open.
            href={
              location === '/'
                ? withFilters(search, { tags: [tag], nav: 'all' })
                : filtersPath({ tags: [tag] })
            }
            active={activeTags.includes(tag)}
            onNavigate={onNavigate}
            onDialog={setDialog}
          />
        ))}
      </ul>
      {dialog?.kind === 'rename' && (
        <NameDialog
          title={t('notes.renameTag')}
          label={t('notes.tagName')}
          initial={dialog.tag}
          submitLabel={t('common.save')}
          testId="rename-tag-dialog"
          validate={(name) => (name.trim() ? null : t('errors.cannotBeEmpty'))}
          onSubmit={(to) => rename.mutateAsync({ from: dialog.tag, to }).then(() => renamed(dialog.tag, to))}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'merge' && (
        <NameDialog
          // Choosing a suggested tag fills the field: a fresh dialog with it as the start value.
          key={mergeTarget}
          title={t('notes.mergeTagTitle', { tag: dialog.tag })}
          label={t('notes.mergeInto')}
          initial={mergeTarget}
          submitLabel={t('notes.mergeTag')}
          testId="merge-tag-dialog"
          validate={(name) => (name.trim() ? null : t('errors.cannotBeEmpty'))}
          onSubmit={(to) => merge.mutateAsync({ from: [dialog.tag], to }).then(() => renamed(dialog.tag, to))}
          onClose={() => {
            setDialog(null);
            setMergeTarget('');
          }}
        >
          {others.length > 0 && (
            <div className="tag-recent">
              {others.slice(0, 12).map(({ tag }) => (
                <button
                  key={tag}
                  type="button"
                  className="tag-chip"
                  dir="auto"
                  onClick={() => setMergeTarget(tag)}
                >
                  #{tag}
                </button>
              ))}
            </div>
          )}
        </NameDialog>
      )}
    </>
  );
}
