import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STORAGE_KEYS } from '../../../src/constants.ts';
import { pushRecentKeyword } from '../../../src/rules/recent-keywords.ts';
import { parseSearchQuery } from '../../../src/rules/search-query.ts';
import { Icon } from '../../components/icons/Icon.tsx';
import { readStoredList, useStoredList, writeStoredList } from './local-pref.ts';

/**
 * The one search box: `#word` becomes a tag filter, the rest is the query. Recent searches (newest
 * first, at most 12) are offered while the box is focused and empty. On phones it starts as an icon.
 */
export function SearchBox({
  value,
  onSearch,
}: {
  /** The search the address holds now, as box text. */
  value: string;
  onSearch(query: { tags: string[]; kw: string }): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(value);
  const [focused, setFocused] = useState(false);
  const [open, setOpen] = useState(value !== '');
  const recent = useStoredList(STORAGE_KEYS.searchHistory);
  useEffect(() => setText(value), [value]);

  const submit = (query: string) => {
    const { tags, text: kw } = parseSearchQuery(query);
    writeStoredList(
      STORAGE_KEYS.searchHistory,
      pushRecentKeyword(readStoredList(STORAGE_KEYS.searchHistory), query),
    );
    setText(query.trim());
    onSearch({ tags, kw });
  };
  const showSuggestions = focused && text === '' && recent.length > 0;

  return (
    <search className="search-box" data-open={open || undefined}>
      <button
        type="button"
        className="icon-button search-toggle"
        aria-label={t('common.search')}
        aria-expanded={open}
        data-testid="search-toggle"
        onClick={() => {
          setOpen(true);
          requestAnimationFrame(() => input.current?.focus());
        }}
      >
        <Icon name="search" />
      </button>
      <form
        className="search-form"
        onSubmit={(event) => {
          event.preventDefault();
          submit(text);
        }}
      >
        <Icon name="search" className="search-icon" />
        <label className="visually-hidden" htmlFor={`${id}-q`}>
          {t('common.search')}
        </label>
        <input
          ref={input}
          id={`${id}-q`}
          type="search"
          data-testid="search-input"
          autoComplete="off"
          enterKeyHint="search"
          placeholder={t('notes.searchPlaceholder')}
          value={text}
          aria-controls={showSuggestions ? `${id}-recent` : undefined}
          onChange={(event) => {
            setText(event.target.value);
            if (event.target.value === '' && value !== '') onSearch({ tags: [], kw: '' });
          }}
          onFocus={() => setFocused(true)}
          onBlur={() => {
            setFocused(false);
            if (text === '') setOpen(false);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape') event.currentTarget.blur();
          }}
        />
      </form>
      {showSuggestions && (
        <ul
          id={`${id}-recent`}
          className="search-recent"
          data-testid="search-recent"
          aria-label={t('notes.recentSearches')}
        >
          {recent.map((keyword) => (
            <li key={keyword}>
              <button
                type="button"
                dir="auto"
                // mousedown, not click: the input's blur would hide the list before a click lands.
                onMouseDown={(event) => {
                  event.preventDefault();
                  submit(keyword);
                }}
              >
                <Icon name="clock" size={14} />
                {keyword}
              </button>
            </li>
          ))}
        </ul>
      )}
    </search>
  );
}
