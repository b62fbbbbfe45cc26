import { describe, expect, test } from 'vitest';
import {
  ClipStatus,
  ColourSlot,
  CoreType,
  DEFAULT_SLOT_COLOURS,
  enumValues,
  Flow,
  GenericFlag,
  HighlightStyle,
  highlightColour,
  isEnumValue,
  isHexColour,
  NoteKind,
  SidebarStyle,
  SortOrder,
  TextTooltipStyle,
  Theme,
} from '../../../src/enums.ts';

describe('enumerations', () => {
  test('Flow: inbox=1, later=2, shortlist=3, archive=9', () =>
    expect(Flow).toEqual({ inbox: 1, later: 2, shortlist: 3, archive: 9 }));
  test('Generic flag: isOK=1, isNotOK=2', () => expect(GenericFlag).toEqual({ isOK: 1, isNotOK: 2 }));
  test('Sidebar style: mini=1, hide=2, list=3', () =>
    expect(SidebarStyle).toEqual({ mini: 1, hide: 2, list: 3 }));
  test('Text tooltip style: more tools=1, hide=2, default colour=3, auto highlight=4', () =>
    expect(TextTooltipStyle).toEqual({ moreTools: 1, hide: 2, defaultColour: 3, autoHighlight: 4 }));
  test('Text tooltip colours: fields c1 to c6, slot ids 1 to 6, each with a default colour', () => {
    expect(Object.keys(ColourSlot)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
    expect(enumValues(ColourSlot)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const slot of enumValues(ColourSlot)) expect(isHexColour(DEFAULT_SLOT_COLOURS[slot])).toBe(true);
  });
  test('Highlight styles 1 to 4', () => expect(enumValues(HighlightStyle)).toEqual([1, 2, 3, 4]));
  test('clip status: 4 processing, 3 queued, 2 failed (done chosen as 1)', () =>
    expect(ClipStatus).toEqual({ done: 1, failed: 2, queued: 3, processing: 4 }));
  test('core type 6 is a text-type note; note kind 3 is a daily note', () => {
    expect(CoreType.textNote).toBe(6);
    expect(NoteKind.daily).toBe(3);
  });
  test('six sort options with distinct stable ids', () => {
    expect(Object.keys(SortOrder)).toHaveLength(6);
    expect(new Set(enumValues(SortOrder)).size).toBe(6);
  });
  test('theme is stored as y (dark) or n (light)', () => {
    expect(Theme.dark).toBe('y');
    expect(Theme.light).toBe('n');
  });
  test('isEnumValue recognises values only', () => {
    expect(isEnumValue(Flow, 9)).toBe(true);
    expect(isEnumValue(Flow, 4)).toBe(false);
    expect(isEnumValue(Flow, 'inbox')).toBe(false);
  });
});

describe('highlight colours carry alpha suffix 98 (strong) or 38 (light)', () => {
  test('suffix appended to a 6-digit hex', () => {
    expect(highlightColour('#fdd835', 'strong')).toBe('#FDD83598');
    expect(highlightColour('#FDD835', 'light')).toBe('#FDD83538');
  });
  test('3-digit and hash-less forms', () => {
    expect(highlightColour('#abc', 'light')).toBe('#AABBCC38');
    expect(highlightColour('123456', 'strong')).toBe('#12345698');
  });
  test('an existing alpha is replaced, not doubled', () =>
    expect(highlightColour('#11223344', 'light')).toBe('#11223338'));
  test('an unreadable colour falls back to slot c1', () =>
    expect(highlightColour('red', 'strong')).toBe(`${DEFAULT_SLOT_COLOURS[1]}98`));
});
