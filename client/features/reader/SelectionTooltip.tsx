import { DropdownMenu } from 'radix-ui';
import { type CSSProperties, type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { type ColourSlot, TextTooltipStyle } from '../../../src/enums.ts';
import { ColourButtons, StyleButtons } from '../highlights/HighlightPickers.tsx';
import { highlightVars } from '../highlights/highlight-look.ts';
import { TOOLTIP_STYLE_LABEL_KEYS, useTooltipStyle } from '../highlights/tooltip-style.ts';
import type { ArticleSelection } from './use-article-selection.ts';

const GAP = 10;
const EDGE = 8;
/** Room the sticky top bar and reader toolbar take; a tooltip above them would be hidden. */
const TOP_RESERVED = 112;

/** Above the selection, centred, kept on screen; below it when there is no room or on touch screens. */
function usePlacement(selection: ArticleSelection) {
  const ref = useRef<HTMLDivElement>(null);
  const [style, setStyle] = useState<CSSProperties>({ visibility: 'hidden' });
  useLayoutEffect(() => {
    const place = () => {
      const box = ref.current;
      if (!box) return;
      const rect = selection.rect();
      const width = box.offsetWidth;
      const height = box.offsetHeight;
      const coarse = window.matchMedia('(pointer: coarse)').matches;
      const above = !coarse && rect.top - height - GAP > TOP_RESERVED;
      const top = above ? rect.top - height - GAP : rect.bottom + GAP;
      const centre = rect.left + rect.width / 2;
      const left = Math.min(Math.max(EDGE, centre - width / 2), window.innerWidth - width - EDGE);
      setStyle({ top: top + window.scrollY, left: Math.max(EDGE, left) + window.scrollX });
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [selection]);
  return { ref, style };
}

/** Buttons keep the article selection: they never take it away on press. */
const keepSelection = (event: React.MouseEvent | React.PointerEvent) => event.preventDefault();

/** The floating bar over a selection; it never takes the selection away on press. */
function TooltipFrame({
  selection,
  label,
  testId,
  tooltipStyle,
  children,
}: {
  selection: ArticleSelection;
  label: string;
  testId: string;
  tooltipStyle?: TextTooltipStyle;
  children: ReactNode;
}) {
  const { ref, style } = usePlacement(selection);
  return createPortal(
    <div
      ref={ref}
      className="selection-tooltip"
      role="toolbar"
      aria-label={label}
      data-testid={testId}
      data-selection-tooltip=""
      data-tooltip-style={tooltipStyle}
      style={style}
      onMouseDown={keepSelection}
    >
      {children}
    </div>,
    document.body,
  );
}

/** While a highlight is being re-attached: one button that puts it on the selection. */
export function AttachTooltip({ selection, onAttach }: { selection: ArticleSelection; onAttach(): void }) {
  const { t } = useTranslation();
  return (
    <TooltipFrame selection={selection} label={t('highlights.reattach')} testId="attach-tooltip">
      <button
        type="button"
        className="tooltip-button tooltip-highlight"
        data-testid="attach-here"
        onClick={onAttach}
      >
        {t('highlights.attachHere')}
      </button>
    </TooltipFrame>
  );
}

export function SelectionTooltip({
  selection,
  highlightStyle,
  onStyle,
  onColour,
}: {
  selection: ArticleSelection;
  highlightStyle: number;
  onStyle(style: number): void;
  onColour(slot: ColourSlot): void;
}) {
  const { t } = useTranslation();
  const [tooltipStyle, setTooltipStyle] = useTooltipStyle();
  if (tooltipStyle === TextTooltipStyle.hide || tooltipStyle === TextTooltipStyle.autoHighlight) return null;
  const single = tooltipStyle === TextTooltipStyle.defaultColour;
  return (
    <TooltipFrame
      selection={selection}
      label={t('highlights.tooltipLabel')}
      testId="selection-tooltip"
      tooltipStyle={tooltipStyle}
    >
      {single ? (
        <button
          type="button"
          className="tooltip-button tooltip-highlight"
          data-testid="tooltip-colour-1"
          aria-label={t('highlights.highlight')}
          onClick={() => onColour(1)}
        >
          <span className="colour-dot" style={highlightVars(1)} aria-hidden="true" />
          {t('highlights.highlight')}
        </button>
      ) : (
        <>
          <ColourButtons className="tooltip-slot" testIdPrefix="tooltip" withShortcuts onPick={onColour} />
          <StyleButtons
            className="tooltip-slot"
            testIdPrefix="tooltip"
            pressed={highlightStyle}
            slot={1}
            onPick={onStyle}
          />
          <div className="tooltip-slot">
            <DropdownMenu.Root modal={false}>
              <DropdownMenu.Trigger
                className="tooltip-button"
                aria-label={t('highlights.more')}
                data-testid="tooltip-more"
              >
                <span aria-hidden="true">⋯</span>
              </DropdownMenu.Trigger>
              <DropdownMenu.Portal>
                <DropdownMenu.Content className="menu" align="end" sideOffset={6} data-selection-tooltip="">
                  <DropdownMenu.Label className="menu-label">
                    {t('highlights.tooltipStyleLabel')}
                  </DropdownMenu.Label>
                  <DropdownMenu.RadioGroup
                    value={String(tooltipStyle)}
                    onValueChange={(value) => setTooltipStyle(Number(value) as TextTooltipStyle)}
                  >
                    {Object.values(TextTooltipStyle).map((value) => (
                      <DropdownMenu.RadioItem
                        key={value}
                        value={String(value)}
                        className="menu-item"
                        data-testid={`tooltip-style-option-${value}`}
                      >
                        <DropdownMenu.ItemIndicator className="menu-check">✓</DropdownMenu.ItemIndicator>
                        {t(TOOLTIP_STYLE_LABEL_KEYS[value])}
                      </DropdownMenu.RadioItem>
                    ))}
                  </DropdownMenu.RadioGroup>
                </DropdownMenu.Content>
              </DropdownMenu.Portal>
            </DropdownMenu.Root>
          </div>
        </>
      )}
    </TooltipFrame>
  );
}
