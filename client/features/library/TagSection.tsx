import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { formatCount } from '../../../src/rules/format-count.ts';
import { useTRPC } from '../../trpc.ts';
import { useDropTarget } from './drop-target.ts';
import { useLibraryActions, useLibraryCache } from './library-actions.ts';
import { filtersPath, withFilters } from './library-url.ts';
import { NameDialog } from './NameDialog.tsx';
import { RowMenu } from './RowMenu.tsx';

type TagDialog = { kind: 'rename' | 'merge'; tag: string } | null;

function TagRow(props: {
  tag: string;
  pages: number;
  href: string;
  active: boolean;
  onNavigate?: () => void;
  onDialog(dialog: TagDialog): void;
}) {
  const { t, i18n } = useTranslation();
  const actions = useLibraryActions();
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
        <span className="nav-count">{formatCount(props.pages, i18n.language)}</span>
      </Link>
      <RowMenu
        label={t('library.tagActions', { tag: props.tag })}
        items={[
          {
            label: t('library.renameTag'),
            onSelect: () => props.onDialog({ kind: 'rename', tag: props.tag }),
          },
          { label: t('library.mergeTag'), onSelect: () => props.onDialog({ kind: 'merge', tag: props.tag }) },
        ]}
      />
    </li>
  );
}

/** Tag: every tag with its page count; click filters, drop pages to tag them, rename or merge. */
export function TagSection({ activeTags, onNavigate }: { activeTags: string[]; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const cache = useLibraryCache();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const tags = useQuery(trpc.library.tags.queryOptions());
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
  const rename = useMutation(trpc.library.renameTag.mutationOptions());
  const merge = useMutation(trpc.library.mergeTags.mutationOptions());
  if (!tags.data) return null;
  if (tags.data.length === 0) return <p className="nav-empty muted">{t('library.noTags')}</p>;
  const others = dialog ? tags.data.filter((x) => x.tag !== dialog.tag) : [];
  return (
    <>
      <ul className="nav-sublist" data-testid="tag-list">
        {tags.data.map(({ tag, pages }) => (
          <TagRow
            key={tag}
            tag={tag}
            pages={pages}
            href={location === '/' ? withFilters(search, { tags: [tag] }) : filtersPath({ tags: [tag] })}
            active={activeTags.includes(tag)}
            onNavigate={onNavigate}
            onDialog={setDialog}
          />
        ))}
      </ul>
      {dialog?.kind === 'rename' && (
        <NameDialog
          title={t('library.renameTag')}
          label={t('library.tagName')}
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
          title={t('library.mergeTagTitle', { tag: dialog.tag })}
          label={t('library.mergeInto')}
          initial={mergeTarget}
          submitLabel={t('library.mergeTag')}
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
