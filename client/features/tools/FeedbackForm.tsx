import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../../src/rules/format-count.ts';
import {
  FEEDBACK_CONTACT_MAX,
  FEEDBACK_KINDS,
  FEEDBACK_MESSAGE_MAX,
  type FeedbackKind,
  zSendFeedbackInput,
} from '../../../src/schemas/feedback.ts';
import { ChoiceCards } from '../../components/ChoiceCards.tsx';
import { TextField, useForm } from '../../components/form.tsx';
import { useTRPC } from '../../trpc.ts';
import { EnvironmentDetails } from './EnvironmentDetails.tsx';
import { browserEnvironment } from './environment.ts';

const FIRST_KIND: FeedbackKind = 'bug';

/**
 * The feedback form: kind, message (with a count against the limit), an optional email for a
 * reply, and the environment, attached unless unticked. Sent, it thanks the user and starts over.
 */
export function FeedbackForm() {
  const { t, i18n } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const form = useForm({ message: '', contact: '' });
  const [kind, setKind] = useState<FeedbackKind>(FIRST_KIND);
  const [attach, setAttach] = useState(true);
  const [sent, setSent] = useState(false);
  // Read at each render, not once: the extension may mark the page after the form appears.
  const environment = browserEnvironment();
  const send = useMutation(
    trpc.feedback.send.mutationOptions({
      onSuccess: () => {
        form.reset();
        setKind(FIRST_KIND);
        setAttach(true);
        setSent(true);
        void queryClient.invalidateQueries({ queryKey: trpc.feedback.list.queryKey() });
      },
      onError: form.fail,
    }),
  );
  const messageId = form.idFor('message');
  const error = form.errors.message;
  const count = form.values.message.length;
  const edit = (name: 'message' | 'contact', value: string) => {
    setSent(false);
    form.set(name, value);
  };

  return (
    <form
      className="form feedback-form"
      noValidate
      data-testid="feedback-form"
      onSubmit={(event) => {
        event.preventDefault();
        setSent(false);
        const input = form.check(zSendFeedbackInput, {
          kind,
          message: form.values.message,
          contact: form.values.contact,
          environment: attach ? environment : null,
        });
        if (input) send.mutate(input);
      }}
    >
      {/* The kind of message, with a line on what each is for. */}
      <ChoiceCards
        name={`${id}-kind`}
        legend={t('feedback.kindLabel')}
        legendShown
        choices={FEEDBACK_KINDS.map((value) => ({
          value,
          label: t(`feedback.kind.${value}`),
          hint: t(`feedback.kindHint.${value}`),
        }))}
        value={kind}
        onChange={(next) => {
          setSent(false);
          setKind(next);
        }}
        testIdPrefix="feedback-kind"
      />
      <div className="field">
        <div className="feedback-message-head">
          <label htmlFor={messageId}>{t('feedback.messageLabel')}</label>
          <span
            id={`${id}-count`}
            className="feedback-count"
            data-over={count > FEEDBACK_MESSAGE_MAX ? true : undefined}
          >
            {t('feedback.messageCount', {
              used: formatCount(count, i18n.language),
              max: formatCount(FEEDBACK_MESSAGE_MAX, i18n.language),
            })}
          </span>
        </div>
        <textarea
          id={messageId}
          name="message"
          className="text-control feedback-message"
          rows={7}
          maxLength={FEEDBACK_MESSAGE_MAX}
          placeholder={t(`feedback.messagePlaceholder.${kind}`)}
          value={form.values.message}
          onChange={(event) => edit('message', event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${messageId}-error` : `${id}-count`}
        />
        {error && (
          <p id={`${messageId}-error`} className="field-error">
            {t(error)}
          </p>
        )}
      </div>
      <TextField
        form={{ ...form, set: edit }}
        name="contact"
        type="email"
        autoComplete="email"
        maxLength={FEEDBACK_CONTACT_MAX}
        label={t('feedback.contactLabel')}
        hint={t('feedback.contactHint')}
      />
      <div className="feedback-attach">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={attach}
            data-testid="feedback-attach"
            aria-describedby={`${id}-attach-hint`}
            onChange={(event) => setAttach(event.target.checked)}
          />
          {t('feedback.attachEnvironment')}
        </label>
        <p id={`${id}-attach-hint`} className="field-hint">
          {t('feedback.attachEnvironmentHint')}
        </p>
        {attach && <EnvironmentDetails environment={environment} />}
      </div>
      <div className="feedback-actions">
        <button type="submit" className="button button-primary" disabled={send.isPending}>
          {send.isPending ? t('feedback.sending') : t('feedback.send')}
        </button>
        <p className="feedback-sent" role="status" data-testid="feedback-sent">
          {sent ? t('feedback.sent') : ''}
        </p>
      </div>
    </form>
  );
}
