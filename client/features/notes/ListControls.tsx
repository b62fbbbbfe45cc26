import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { STORAGE_KEYS } from '../../../src/constants.ts';
import { NoteSort, type SortOrder, ViewStyle } from '../../../src/enums.ts';
import { writePref } from './local-pref.ts';
import { NotesIcon } from './note-icons.tsx';

const SORTS = Object.entries(NoteSort) as [keyof typeof NoteSort, NoteSort][];
const VIEWS = [ViewStyle.article, ViewStyle.card, ViewStyle.list] as const;

/** View style (article, card, list) and the note sorts; both remembered on this device. */
export function ListControls({
  view,
  sort,
  onSort,
}: {
  view: ViewStyle;
  sort: SortOrder;
  onSort(sort: SortOrder): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="list-controls">
      <fieldset className="view-switch" data-testid="view-switch">
        <legend className="visually-hidden">{t('notes.viewStyle')}</legend>
        {VIEWS.map((style) => (
          <label key={style} className="view-option" title={t(`notes.view.${style}`)}>
            <input
              type="radio"
              name={`${id}-view`}
              value={style}
              checked={view === style}
              data-testid={`view-${style}`}
              onChange={() => writePref(STORAGE_KEYS.viewStyle, style)}
            />
            <NotesIcon name={style} />
            <span className="visually-hidden">{t(`notes.view.${style}`)}</span>
          </label>
        ))}
      </fieldset>
      <label className="visually-hidden" htmlFor={`${id}-sort`}>
        {t('notes.sortLabel')}
      </label>
      <select
        id={`${id}-sort`}
        className="sort-select"
        data-testid="sort-select"
        value={sort}
        onChange={(event) => {
          const next = event.target.value as SortOrder;
          writePref(STORAGE_KEYS.sort, next);
          onSort(next);
        }}
      >
        {SORTS.map(([key, value]) => (
          <option key={value} value={value}>
            {t(`notes.sort.${key}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
