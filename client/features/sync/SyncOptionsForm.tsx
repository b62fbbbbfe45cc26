import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { enumValues, Flow } from '../../../src/enums.ts';
import { isolate } from '../../../src/rules/bidi.ts';
import type { FolderView } from '../../../src/schemas/folders.ts';
import {
  ExcludeRange,
  type IntegrationSettings,
  type IntegrationView,
  TagStyle,
  WriteStyle,
  zUpdateSettingsInput,
} from '../../../src/schemas/sync.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';
import { TagChipsInput } from '../highlights/TagChipsInput.tsx';
import type { AppInfo } from './apps.ts';
import { syncErrorMessage } from './sync-errors.ts';
import { useIntegrationUpdate } from './use-integration.ts';

type Options = Omit<IntegrationSettings, 'templates'>;
type Problems = Partial<Record<'folder' | 'since' | 'form', string>>;

const FLOWS = enumValues(Flow);
const FLOW_KEY: Record<Flow, string> = {
  [Flow.inbox]: 'sync.flow.inbox',
  [Flow.later]: 'sync.flow.later',
  [Flow.shortlist]: 'sync.flow.shortlist',
  [Flow.archive]: 'sync.flow.archive',
};
const EXCLUDES = [
  { bit: ExcludeRange.withoutHighlights, key: 'sync.excludeWithoutHighlights', testId: 'range-1' },
  { bit: ExcludeRange.dailyNotes, key: 'sync.excludeDailyNotes', testId: 'range-2' },
] as const;

function optionsOf({ templates: _templates, ...options }: IntegrationSettings): Options {
  return options;
}

/** The folder tree as a flat list, each with its depth (for indenting the choices). */
function withDepth(folders: readonly FolderView[]): { folder: FolderView; depth: number }[] {
  const depthOf = (parentId: string | null, seen = 0): number => {
    const parent = folders.find((f) => f.id === parentId);
    return parent && seen < 16 ? depthOf(parent.parentId, seen + 1) + 1 : 0;
  };
  return folders.map((folder) => ({ folder, depth: depthOf(folder.parentId) }));
}

function Check({
  checked,
  onChange,
  children,
  testId,
}: {
  checked: boolean;
  onChange(checked: boolean): void;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <label className="checkbox">
      <input
        type="checkbox"
        checked={checked}
        data-testid={testId}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span>{children}</span>
    </label>
  );
}

function Radio({
  name,
  checked,
  onChange,
  label,
  hint,
}: {
  name: string;
  checked: boolean;
  onChange(): void;
  label: ReactNode;
  hint?: string;
}) {
  return (
    <label className="choice">
      <input type="radio" name={name} checked={checked} onChange={onChange} />
      <span className="choice-text">
        <span className="choice-label">{label}</span>
        {hint && <span className="field-hint">{hint}</span>}
      </span>
    </label>
  );
}

/** Which notes are sent: the exclude ranges and the filter (states, tags, folder, since). */
function WhatToSync({
  options,
  set,
  problems,
}: {
  options: Options;
  set(next: Partial<Options>): void;
  problems: Problems;
}) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const folders = useQuery(trpc.folders.list.queryOptions());
  const id = useId();
  const filter = options.filter;
  const setFilter = (next: Partial<Options['filter']>) => set({ filter: { ...filter, ...next } });
  const toggleFlow = (flow: Flow, on: boolean) =>
    setFilter({
      flows: on
        ? FLOWS.filter((f) => f === flow || filter.flows.includes(f))
        : filter.flows.filter((f) => f !== flow),
    });
  return (
    <fieldset className="option-group">
      <legend className="option-legend eyebrow">{t('sync.whatTitle')}</legend>
      <div className="option-checks">
        {EXCLUDES.map(({ bit, key, testId }) => (
          <Check
            key={bit}
            testId={testId}
            checked={(options.excludeRanges & bit) !== 0}
            onChange={(on) =>
              set({ excludeRanges: on ? options.excludeRanges | bit : options.excludeRanges & ~bit })
            }
          >
            {t(key)}
          </Check>
        ))}
      </div>
      <fieldset className="field-set">
        <legend>{t('sync.filterFlows')}</legend>
        <div className="option-checks option-checks-row">
          {FLOWS.map((flow) => (
            <Check key={flow} checked={filter.flows.includes(flow)} onChange={(on) => toggleFlow(flow, on)}>
              {t(FLOW_KEY[flow])}
            </Check>
          ))}
        </div>
        <p className="field-hint">{t('sync.filterFlowsHint')}</p>
      </fieldset>
      <fieldset className="field-set sync-tags">
        <legend>{t('sync.filterTags')}</legend>
        <TagChipsInput tags={filter.tags} onChange={(tags) => setFilter({ tags })} />
        <p className="field-hint">{t('sync.filterTagsHint')}</p>
      </fieldset>
      <div className="option-pair">
        <div className="field">
          <label htmlFor={`${id}-folder`}>{t('sync.filterFolder')}</label>
          <select
            id={`${id}-folder`}
            className="text-control"
            value={filter.folderId ?? ''}
            onChange={(e) => setFilter({ folderId: e.target.value || null })}
          >
            <option value="">{t('sync.anyFolder')}</option>
            {withDepth(folders.data ?? []).map(({ folder, depth }) => (
              <option key={folder.id} value={folder.id}>
                {`${'\u00a0\u00a0'.repeat(depth)}${folder.name}`}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-since`}>{t('sync.filterSince')}</label>
          <input
            id={`${id}-since`}
            type="date"
            className="text-control"
            value={filter.since ?? ''}
            aria-invalid={problems.since ? true : undefined}
            aria-describedby={`${id}-since-hint`}
            onChange={(e) => setFilter({ since: e.target.value || null })}
          />
          <p id={`${id}-since-hint`} className={problems.since ? 'field-error' : 'field-hint'}>
            {problems.since ?? t('sync.filterSinceHint')}
          </p>
        </div>
      </div>
    </fieldset>
  );
}

/** How notes are written: the folder, Obsidian's write style and the tag style (when they apply). */
function HowToWrite({
  info,
  options,
  set,
  problems,
}: {
  info: AppInfo;
  options: Options;
  set(next: Partial<Options>): void;
  problems: Problems;
}) {
  const { t } = useTranslation();
  const id = useId();
  if (!info.folder && !info.writeStyle && !info.tagStyle) return null;
  return (
    <fieldset className="option-group">
      <legend className="option-legend eyebrow">{t('sync.howTitle')}</legend>
      {info.folder && (
        <div className="field">
          <label htmlFor={`${id}-folder`}>{t(`sync.folderLabel.${info.app}`)}</label>
          <input
            id={`${id}-folder`}
            className="text-control"
            data-testid="sync-folder"
            value={options.folder}
            dir="auto"
            aria-invalid={problems.folder ? true : undefined}
            aria-describedby={`${id}-folder-hint`}
            onChange={(e) => set({ folder: e.target.value })}
          />
          <p id={`${id}-folder-hint`} className={problems.folder ? 'field-error' : 'field-hint'}>
            {problems.folder ?? t(`sync.folderHint.${info.app}`)}
          </p>
        </div>
      )}
      {info.writeStyle && (
        <fieldset className="field-set">
          <legend>{t('sync.writeStyle')}</legend>
          <Radio
            name={`${id}-write`}
            checked={options.writeStyle === WriteStyle.overwrite}
            onChange={() => set({ writeStyle: WriteStyle.overwrite })}
            label={t('sync.writeOverwrite')}
            hint={t('sync.writeOverwriteHint')}
          />
          <Radio
            name={`${id}-write`}
            checked={options.writeStyle === WriteStyle.partial}
            onChange={() => set({ writeStyle: WriteStyle.partial })}
            label={t('sync.writePartial')}
            hint={t('sync.writePartialHint', { begin: isolate('%%begin …%%'), end: isolate('%%end …%%') })}
          />
        </fieldset>
      )}
      {info.tagStyle && (
        <fieldset className="field-set">
          <legend>{t('sync.tagStyle')}</legend>
          <div className="option-checks-row">
            <Radio
              name={`${id}-tags`}
              checked={options.tagStyle === TagStyle.hash}
              onChange={() => set({ tagStyle: TagStyle.hash })}
              label={
                <code className="mono" dir="ltr">
                  #tag
                </code>
              }
            />
            <Radio
              name={`${id}-tags`}
              checked={options.tagStyle === TagStyle.wikilink}
              onChange={() => set({ tagStyle: TagStyle.wikilink })}
              label={
                <code className="mono" dir="ltr">
                  [[tag]]
                </code>
              }
            />
          </div>
        </fieldset>
      )}
    </fieldset>
  );
}

/** The problems of an options input as the shared schema sees them, keyed by the field they belong to. */
function problemsOf(input: unknown, t: (key: string) => string): Problems {
  const result = zUpdateSettingsInput.safeParse(input);
  if (result.success) return {};
  const problems: Problems = {};
  for (const issue of result.error.issues) {
    const field = issue.path.includes('since') ? 'since' : issue.path.includes('folder') ? 'folder' : 'form';
    problems[field] ??= t(issue.message.startsWith('errors.') ? issue.message : 'errors.invalidInput');
  }
  return problems;
}

/** The integration's options, saved together. */
export function SyncOptionsForm({ info, integration }: { info: AppInfo; integration: IntegrationView }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const update = useIntegrationUpdate(info.app);
  const [options, setOptions] = useState(() => optionsOf(integration.settings));
  const [problems, setProblems] = useState<Problems>({});
  const set = (next: Partial<Options>) => setOptions((o) => ({ ...o, ...next }));
  const save = useMutation(
    trpc.sync.updateSettings.mutationOptions({
      onSuccess: (view) => {
        update.set(view);
        setOptions(optionsOf(view.settings));
        notify.success('toast.saveSuccess');
      },
      onError: (error) => setProblems({ form: syncErrorMessage(error, t) }),
    }),
  );
  return (
    <form
      className="form sync-options"
      noValidate
      data-testid="sync-options"
      onSubmit={(event) => {
        event.preventDefault();
        const input = { app: info.app, settings: options };
        const found = problemsOf(input, t);
        setProblems(found);
        if (Object.keys(found).length === 0) save.mutate(input);
      }}
    >
      <WhatToSync options={options} set={set} problems={problems} />
      <HowToWrite info={info} options={options} set={set} problems={problems} />
      {problems.form && (
        <p className="field-error" role="alert">
          {problems.form}
        </p>
      )}
      <div>
        <button
          type="submit"
          className="button button-primary"
          disabled={save.isPending}
          data-testid="save-options"
        >
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}
