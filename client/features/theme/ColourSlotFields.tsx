import { COLOUR_SLOTS } from '../highlights/highlight-look.ts';
import { DEFAULT_PALETTE } from '../highlights/highlight-palette.ts';
import { ColourSlotField } from './ColourSlotField.tsx';
import type { PaletteEditor } from './palette-editor.ts';
import '../../styles/colour-slots.css';

/** The six highlight colours, each with its picker, hex code and way back to the default. */
export function ColourSlotFields({ editor }: { editor: PaletteEditor }) {
  const { palette, edit, setDefault } = editor;
  return (
    <ul className="colour-slots">
      {COLOUR_SLOTS.map((slot) => (
        <ColourSlotField
          key={slot}
          slot={slot}
          value={palette[slot]}
          isDefault={palette[slot] === DEFAULT_PALETTE[slot]}
          onChange={(hex) => edit(slot, hex)}
          onDefault={() => setDefault(slot)}
        />
      ))}
    </ul>
  );
}
