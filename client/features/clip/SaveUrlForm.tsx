import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';
import { useNoteCache } from '../notes/note-cache.ts';

/** "example.com/a" is meant as a web address: give it https. Anything with a scheme is left alone. */
function withScheme(input: string): string {
  const trimmed = input.trim();
  return /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

/** The "save a page" box: a URL and Save (Enter submits). The note shows in the list at once. */
export function SaveUrlForm() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const cache = useNoteCache();
  const id = useId();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const clip = useMutation(
    trpc.notes.clip.mutationOptions({
      onSuccess: ({ note, created, retried }) => {
        cache.saved(note);
        setUrl('');
        if (retried) notify.info('clip.savedAgainRetrying');
        else if (!created) notify.info('clip.alreadySaved');
      },
      onError: (cause) => setError(errorMessage(cause, t)),
    }),
  );
  return (
    <form
      className="save-url"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!url.trim() || clip.isPending) return;
        clip.mutate({ url: withScheme(url) });
      }}
    >
      <label className="visually-hidden" htmlFor={`${id}-url`}>
        {t('clip.urlLabel')}
      </label>
      <div className="save-url-row">
        <input
          id={`${id}-url`}
          data-testid="save-url-input"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={t('clip.urlPlaceholder')}
          value={url}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            setUrl(event.target.value);
            setError(null);
          }}
        />
        <button
          type="submit"
          className="button button-primary"
          data-testid="save-url-submit"
          disabled={clip.isPending}
        >
          {t('clip.save')}
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error" data-testid="save-url-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
