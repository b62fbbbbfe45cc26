import { useEffect, useRef, useState } from 'react';
import type { ColourSlot } from '../../../src/enums.ts';
import type { UpdateUserSettingsInput } from '../../../src/schemas/user-settings.ts';
import { useDebounced } from '../../lib/use-debounced.ts';
import { useUserSettings } from '../account/use-user-settings.ts';
import { COLOUR_SLOTS } from '../highlights/highlight-look.ts';
import { DEFAULT_PALETTE, type Palette, useHighlightPalette } from '../highlights/highlight-palette.ts';

/** A colour being dragged in the picker is saved once it rests this long. */
const SAVE_AFTER_MS = 400;

type Drafts = Partial<Record<ColourSlot, string>>;

/** The colour patch of each slot, as a stored change: the default colour is stored as "none". */
function patchOf(drafts: Drafts): UpdateUserSettingsInput {
  return Object.fromEntries(
    Object.entries(drafts).map(([slot, hex]) => [
      `c${slot}`,
      hex === DEFAULT_PALETTE[Number(slot) as ColourSlot] ? null : hex,
    ]),
  );
}

/**
 * Colours being edited: shown at once, saved when they rest. Whatever is still waiting when the
 * page closes is saved then.
 */
function useColourDrafts(save: (patch: UpdateUserSettingsInput) => void) {
  const [drafts, setDrafts] = useState<Drafts>({});
  const resting = useDebounced(drafts, SAVE_AFTER_MS);
  useEffect(() => {
    if (Object.keys(resting).length === 0) return;
    save(patchOf(resting));
    setDrafts((current) => {
      const next = { ...current };
      for (const slot of COLOUR_SLOTS) if (next[slot] === resting[slot]) delete next[slot];
      return next;
    });
  }, [resting, save]);
  const latest = useRef({ drafts, save });
  latest.current = { drafts, save };
  useEffect(
    () => () => {
      const { drafts: waiting, save: saveNow } = latest.current;
      if (Object.keys(waiting).length > 0) saveNow(patchOf(waiting));
    },
    [],
  );
  return { drafts, setDrafts };
}

export interface PaletteEditor {
  /** The account's colours with the ones being edited over them. */
  palette: Palette;
  edit: (slot: ColourSlot, hex: string) => void;
  /** The slot back to its default colour, saved at once. */
  setDefault: (slot: ColourSlot) => void;
  /** Forgets the colours not yet saved (the account's were just reset). */
  discardEdits: () => void;
}

/** The account's six highlight colours (c1–c6), as the colour fields edit them. */
export function usePaletteEditor(): PaletteEditor {
  const { update } = useUserSettings();
  const saved = useHighlightPalette();
  const { drafts, setDrafts } = useColourDrafts(update);
  return {
    palette: { ...saved, ...drafts },
    edit: (slot, hex) => setDrafts((current) => ({ ...current, [slot]: hex })),
    setDefault: (slot) => {
      setDrafts(({ [slot]: _dropped, ...rest }) => rest);
      update({ [`c${slot}`]: null });
    },
    discardEdits: () => setDrafts({}),
  };
}
