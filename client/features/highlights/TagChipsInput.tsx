import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TAG_MAX, TAGS_PER_ITEM_MAX } from '../../../src/schemas/tags.ts';
import '../../styles/tag-chips.css';

/** Tags as chips. Enter or a comma commits the typed tag (tags never contain commas). */
export function TagChipsInput({
  tags,
  onChange,
}: {
  tags: readonly string[];
  onChange(tags: string[]): void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const id = useId();
  const commit = (raw: string) => {
    const tag = raw.replaceAll(',', ' ').trim().slice(0, TAG_MAX);
    setDraft('');
    if (!tag || tags.includes(tag) || tags.length >= TAGS_PER_ITEM_MAX) return;
    onChange([...tags, tag]);
  };
  return (
    <div className="tag-chips" data-testid="tag-chips">
      <label htmlFor={id} className="visually-hidden">
        {t('highlights.addTag')}
      </label>
      {tags.map((tag) => (
        <span key={tag} className="tag-chip" data-tag={tag}>
          {tag}
          <button
            type="button"
            className="tag-chip-remove"
            aria-label={t('highlights.removeTag', { tag })}
            onClick={() => onChange(tags.filter((x) => x !== tag))}
          >
            ×
          </button>
        </span>
      ))}
      <input
        id={id}
        className="tag-chips-input"
        data-testid="tag-input"
        value={draft}
        placeholder={tags.length ? '' : t('highlights.addTag')}
        maxLength={TAG_MAX + 1}
        onChange={(event) => {
          const value = event.target.value;
          if (value.includes(',')) commit(value);
          else setDraft(value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit(draft);
          } else if (event.key === 'Backspace' && !draft && tags.length) {
            onChange(tags.slice(0, -1));
          }
        }}
        onBlur={() => draft.trim() && commit(draft)}
      />
    </div>
  );
}
