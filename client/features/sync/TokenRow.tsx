import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SYNC_TOKEN_NAME_MAX, type SyncTokenView as TokenView } from '../../../src/schemas/sync.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';
import { syncErrorMessage } from './sync-errors.ts';
import { RevokeTokenButton, TokenUse } from './token-parts.tsx';

function useTokensRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.sync.tokens.queryKey() });
}

/** Rename in place: Enter saves, Escape gives up. */
function RenameForm({ token, onDone }: { token: TokenView; onDone(): void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const refresh = useTokensRefresh();
  const id = useId();
  const [name, setName] = useState(token.name);
  const [problem, setProblem] = useState<string | null>(null);
  const rename = useMutation(
    trpc.sync.renameToken.mutationOptions({
      onSuccess: () => {
        void refresh();
        onDone();
      },
      onError: (error) => setProblem(syncErrorMessage(error, t)),
    }),
  );
  return (
    <form
      className="token-rename"
      noValidate
      data-testid="token-rename"
      onSubmit={(event) => {
        event.preventDefault();
        if (!name.trim()) return setProblem(t('errors.cannotBeEmpty'));
        if (name.trim() === token.name) return onDone();
        rename.mutate({ id: token.id, name: name.trim() });
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onDone();
        }
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        {t('sync.renameLabel', { name: token.name })}
      </label>
      <input
        id={id}
        className="text-control"
        value={name}
        maxLength={SYNC_TOKEN_NAME_MAX + 1}
        // biome-ignore lint/a11y/noAutofocus: the user just asked to rename this token
        autoFocus
        dir="auto"
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-error` : undefined}
        onChange={(event) => {
          setName(event.target.value);
          setProblem(null);
        }}
      />
      <button type="submit" className="button button-small button-primary" disabled={rename.isPending}>
        {t('common.save')}
      </button>
      <button type="button" className="button button-small" onClick={onDone}>
        {t('common.cancel')}
      </button>
      {problem && (
        <p id={`${id}-error`} className="field-error token-rename-error">
          {problem}
        </p>
      )}
    </form>
  );
}

/** When the token was made and last used, and by which client. */
function TokenFacts({ token }: { token: TokenView }) {
  const { t } = useTranslation();
  return (
    <p className="token-facts">
      <span className="badge">{t(`sync.app.${token.app}`)}</span>
      <TokenUse createdAt={token.createdAt} lastUsedAt={token.lastUsedAt} client={token.lastUsedClient} />
    </p>
  );
}

/** One token: its name (renamed in place), its facts, and Revoke behind a confirmation. */
export function TokenRow({ token }: { token: TokenView }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const refresh = useTokensRefresh();
  const [renaming, setRenaming] = useState(false);
  // When the rename form closes, focus goes back to the button that opened it (not to <body>).
  const renameButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  useEffect(() => {
    if (!renaming && returnFocus.current) {
      returnFocus.current = false;
      renameButton.current?.focus();
    }
  }, [renaming]);
  const revoke = useMutation(
    trpc.sync.revokeToken.mutationOptions({
      onSuccess: () => {
        void refresh();
        notify.success('sync.tokenRevoked');
      },
      onError: (error) => notify.error(error),
    }),
  );
  return (
    <li className="token" data-testid="token" data-token-id={token.id}>
      <div className="token-main">
        {renaming ? (
          <RenameForm
            token={token}
            onDone={() => {
              returnFocus.current = true;
              setRenaming(false);
            }}
          />
        ) : (
          <strong className="token-name" dir="auto">
            {token.name}
          </strong>
        )}
        <TokenFacts token={token} />
      </div>
      {!renaming && (
        <div className="token-actions">
          <button
            ref={renameButton}
            type="button"
            className="button button-small"
            onClick={() => setRenaming(true)}
          >
            {t('sync.rename')}
          </button>
          <RevokeTokenButton
            name={token.name}
            consequence={t('sync.revokeBody')}
            pending={revoke.isPending}
            onRevoke={() => revoke.mutate({ id: token.id })}
          />
        </div>
      )}
    </li>
  );
}
