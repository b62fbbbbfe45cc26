import { type ClipboardEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { splitTypedUrls } from '../../../src/rules/note-url.ts';
import { loadTranslations } from '../../i18n.ts';
import { errorMessage } from '../../lib/errors.ts';
import { useTRPCClient } from '../../trpc.ts';
import { useNoteCache } from '../notes/note-cache.ts';
import type { SaveQueue } from './save-queue.ts';

type QueueModule = typeof import('./SaveQueueList.tsx');

/**
 * The "save a page" box: one address or several (pasted one per line), Save or Enter. Each
 * becomes an entry of the save queue below, saved a few at a time, so the box stays free for the
 * next; only what was queued leaves the box, and words that are no address stay with an error.
 * The queue and its list, and the error words, load with the first save.
 */
export function SaveUrlForm() {
  const { t } = useTranslation();
  const client = useTRPCClient();
  const cache = useNoteCache();
  const id = useId();
  const [url, setUrl] = useState('');
  /** The key of the error shown. */
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<{ List: QueueModule['SaveQueueList']; queue: SaveQueue } | null>(null);
  const queue = useRef<Promise<SaveQueue> | null>(null);

  function loadQueue(): Promise<SaveQueue> {
    queue.current ??= Promise.all([import('./SaveQueueList.tsx'), loadTranslations('saveQueue')]).then(
      ([module]) => {
        const made = new module.SaveQueue(async (address) => {
          const result = await client.notes.clip.mutate({ url: address });
          cache.saved(result.note);
          return result;
        });
        setShown({ List: module.SaveQueueList, queue: made });
        return made;
      },
    );
    return queue.current;
  }

  /** Shows an error once its words are in. */
  function showError(key: string) {
    void loadTranslations('saveQueue')
      .catch(() => undefined)
      .then(() => setError(key));
  }

  function submit() {
    const { urls, rest } = splitTypedUrls(url);
    if (!urls.length && !rest.length) return;
    setUrl(rest.join(' '));
    if (rest.length) showError('errors.urlInvalid');
    else setError(null);
    if (!urls.length) return;
    loadQueue().then(
      (loaded) => loaded.add(urls),
      () => {
        // Offline before the queue ever loaded: the addresses go back into the box.
        queue.current = null;
        setUrl((now) => [...urls, now].filter(Boolean).join(' '));
        showError('errors.network');
      },
    );
  }

  // A list pasted one per line keeps its line breaks as spaces (an input would drop them,
  // running the addresses together).
  function onPaste(event: ClipboardEvent<HTMLInputElement>) {
    const pasted = event.clipboardData.getData('text');
    if (!/[\r\n]/.test(pasted.trim())) return;
    event.preventDefault();
    const input = event.currentTarget;
    const [from, to] = [input.selectionStart ?? url.length, input.selectionEnd ?? url.length];
    setUrl(`${url.slice(0, from)}${pasted.trim().replace(/\s+/g, ' ')}${url.slice(to)}`);
    setError(null);
  }

  return (
    <form
      className="save-url"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label className="visually-hidden" htmlFor={`${id}-url`}>
        {t('clip.urlLabel')}
      </label>
      <div className="save-url-row">
        <input
          id={`${id}-url`}
          data-testid="save-url-input"
          type="text"
          inputMode="url"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          placeholder={t('clip.urlPlaceholder')}
          value={url}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            setUrl(event.target.value);
            setError(null);
          }}
          onPaste={onPaste}
        />
        <button type="submit" className="button button-primary" data-testid="save-url-submit">
          {t('clip.save')}
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error" data-testid="save-url-error" role="alert">
          {t(error)}
        </p>
      )}
      {shown && <shown.List queue={shown.queue} errorText={(error) => errorMessage(error, t)} />}
    </form>
  );
}
