import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ClipStatus, Flow } from '../../../src/enums.ts';
import type { NoteSummary } from '../../../src/schemas/notes.ts';
import { Icon } from '../../components/icons/Icon.tsx';
import { clipStatusKey } from '../clip/clip-status.ts';
import { NotesIcon } from './note-icons.tsx';

const FLOW_MARKERS = {
  [Flow.later]: ['later', <Icon key="later" name="clock" size={14} />],
  [Flow.shortlist]: ['star', <Icon key="star" name="star" size={14} />],
  [Flow.archive]: ['archive', <Icon key="archive" name="archive" size={14} />],
} as Record<number, [string, ReactNode] | undefined>;

const CLIP_MARKERS = {
  [ClipStatus.processing]: ['processing', <span key="processing" className="clip-spinner" />],
  [ClipStatus.queued]: ['queued', <NotesIcon key="queued" name="queued" size={14} />],
  [ClipStatus.failed]: ['failed', <NotesIcon key="failed" name="failed" size={14} />],
} as Record<number, [string, ReactNode] | undefined>;

/**
 * A note's state (read later, starred, archived, in the trash) and an unfinished clip as small
 * icons, each named for screen readers and on hover; the same in every view of the list (and
 * beside a highlight's note in the highlight list).
 */
export function NoteMarkers({
  note,
  inTrash,
}: {
  note: Pick<NoteSummary, 'flow'> & Partial<Pick<NoteSummary, 'clipStatus'>>;
  inTrash: boolean;
}) {
  const { t } = useTranslation();
  const flow = FLOW_MARKERS[note.flow];
  const status = note.clipStatus ?? ClipStatus.done;
  const clip = CLIP_MARKERS[status];
  const markers: [string, string, ReactNode][] = [];
  if (inTrash) markers.push(['trash', t('notes.marker.trash'), <Icon key="trash" name="trash" size={14} />]);
  if (flow) markers.push([flow[0], t(`notes.marker.${flow[0]}`), flow[1]]);
  if (clip) markers.push([clip[0], t(clipStatusKey(status) ?? ''), clip[1]]);
  if (!markers.length) return null;
  return (
    <span className="note-markers" data-testid="note-markers">
      {markers.map(([id, label, icon]) => (
        <span key={id} className="note-marker" data-marker={id} role="img" aria-label={label} title={label}>
          {icon}
        </span>
      ))}
    </span>
  );
}
