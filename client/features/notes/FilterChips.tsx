import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icons/Icon.tsx';
import { hasNarrowing, type NoteFilters } from './note-list-url.ts';
import { useFolderName } from './use-folder-name.ts';

function Chip({ label, clearLabel, onClear }: { label: string; clearLabel: string; onClear(): void }) {
  return (
    <li className="filter-chip" dir="auto">
      <span>{label}</span>
      <button type="button" className="filter-chip-clear" aria-label={clearLabel} onClick={onClear}>
        <Icon name="close" size={12} />
      </button>
    </li>
  );
}

/** The active narrowing filters (tags, search, folder), each removable, and "Clear filters". */
export function FilterChips({
  filters,
  onChange,
}: {
  filters: NoteFilters;
  onChange(change: Partial<NoteFilters>): void;
}) {
  const { t } = useTranslation();
  const folderName = useFolderName(filters.folderId);
  if (!hasNarrowing(filters)) return null;
  return (
    <ul className="filter-chips" data-testid="filter-chips" aria-label={t('notes.activeFilters')}>
      {filters.tags.map((tag) => (
        <Chip
          key={tag}
          label={`#${tag}`}
          clearLabel={t('notes.removeFilter', { name: `#${tag}` })}
          onClear={() => onChange({ tags: filters.tags.filter((x) => x !== tag) })}
        />
      ))}
      {filters.kw && (
        <Chip
          label={`“${filters.kw}”`}
          clearLabel={t('notes.removeFilter', { name: filters.kw })}
          onClear={() => onChange({ kw: '' })}
        />
      )}
      {filters.folderId && (
        <Chip
          label={folderName}
          clearLabel={t('notes.removeFilter', { name: folderName })}
          onClear={() => onChange({ folderId: null })}
        />
      )}
      <li>
        <button
          type="button"
          className="button button-small clear-filters"
          data-testid="clear-filters"
          onClick={() => onChange({ tags: [], kw: '', folderId: null })}
        >
          {t('notes.clearFilters')}
        </button>
      </li>
    </ul>
  );
}
