import { lazy, type RefObject, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { type ColourSlot, CoreType, HighlightStyle, TextTooltipStyle } from '../../../src/enums.ts';
import type { Highlight } from '../../../src/schemas/highlights.ts';
import type { NoteDetail } from '../../../src/schemas/notes.ts';
import { isTypingTarget } from '../../lib/keys.ts';
import type { Measurable } from '../highlights/HighlightCard.tsx';
import { isColourSlot } from '../highlights/highlight-look.ts';
import { useTooltipStyle } from '../highlights/tooltip-style.ts';
import type { HighlightActions } from '../highlights/use-highlight-actions.ts';
import { imageSourceOf } from './highlight-placement.ts';
import { highlightRects, type PaintedHighlights } from './painted-highlights.ts';
import { ReattachBar } from './ReattachBar.tsx';
import { AttachTooltip, SelectionTooltip } from './SelectionTooltip.tsx';
import { type ArticleSelection, useArticleSelection } from './use-article-selection.ts';

const HighlightCard = lazy(() => import('../highlights/HighlightCard.tsx'));

const DEFAULT_SLOT: ColourSlot = 1;
const IMAGE_BUTTON_GRACE_MS = 300;

/**
 * The article's highlight interactions: the selection tooltip, keys 1–6 / h / Esc, hover and click on
 * painted highlights (which open their card), image highlights. While a highlight is being
 * re-attached (`reattaching`), a selection offers "Attach here" (or Enter) instead of colours.
 */
export function HighlightLayer({
  root,
  note,
  highlights,
  painted,
  actions,
  reattaching,
  onReattachEnd,
}: {
  root: RefObject<HTMLElement | null>;
  note: NoteDetail;
  highlights: readonly Highlight[];
  painted: PaintedHighlights;
  actions: HighlightActions;
  reattaching: Highlight | null;
  onReattachEnd(): void;
}) {
  const paintedRef = useRef(painted);
  paintedRef.current = painted;
  const [tooltipStyle] = useTooltipStyle();
  const [highlightStyle, setHighlightStyle] = useState<number>(HighlightStyle.background);
  const styleRef = useRef(highlightStyle);
  styleRef.current = highlightStyle;
  const [cardId, setCardId] = useState<string | null>(null);

  const createFrom = useCallback(
    (selection: ArticleSelection, slot: ColourSlot) => {
      document.getSelection()?.removeAllRanges();
      void actions.create(
        {
          coreType: CoreType.highlight,
          selectors: selection.selectors,
          slotId: slot,
          style: styleRef.current,
        },
        selection.selectors.position.start,
      );
    },
    [actions],
  );
  const autoHighlight = useCallback(
    (selection: ArticleSelection) => {
      if (tooltipStyle === TextTooltipStyle.autoHighlight && !reattaching)
        createFrom(selection, DEFAULT_SLOT);
    },
    [tooltipStyle, createFrom, reattaching],
  );
  const { selection, dismiss } = useArticleSelection(root, autoHighlight);
  const attach = useCallback(async () => {
    if (!selection || !reattaching) return;
    dismiss();
    if (await actions.reattach(reattaching, selection.selectors)) onReattachEnd();
  }, [selection, reattaching, actions, dismiss, onReattachEnd]);
  const colour = useCallback(
    (slot: ColourSlot) => {
      if (!selection) return;
      createFrom(selection, slot);
      dismiss();
    },
    [selection, createFrom, dismiss],
  );

  // Keys 1–6 colour the selection (Enter attaches it while re-attaching), Esc drops it; only
  // while there is one in the article.
  useEffect(() => {
    if (!selection) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (
        event.defaultPrevented ||
        event.altKey ||
        event.ctrlKey ||
        event.metaKey ||
        isTypingTarget(event.target)
      )
        return;
      const slot = Number(event.key);
      if (event.key === 'Escape') {
        event.preventDefault();
        dismiss();
      } else if (reattaching) {
        if (event.key === 'Enter') {
          event.preventDefault();
          void attach();
        }
      } else if (event.key.length === 1 && isColourSlot(slot)) {
        event.preventDefault();
        colour(slot);
      } else if (event.key === 'h') {
        // The default colour, as the tooltip's one-colour button gives it.
        event.preventDefault();
        colour(DEFAULT_SLOT);
      }
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [selection, colour, dismiss, reattaching, attach]);

  // A click on a painted highlight (not the end of a drag) opens its card; the pointer over one
  // shows it as hovered.
  useEffect(() => {
    const element = root.current;
    if (!element) return;
    const onClick = (event: MouseEvent) => {
      if (!document.getSelection()?.isCollapsed) return;
      const id = paintedRef.current.idAt(event.clientX, event.clientY, event.target);
      if (!id) return;
      event.preventDefault();
      setCardId(id);
    };
    let frame = 0;
    const onPointerMove = (event: PointerEvent) => {
      if (event.pointerType !== 'mouse' || frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        paintedRef.current.hover(paintedRef.current.idAt(event.clientX, event.clientY, event.target));
      });
    };
    const onPointerLeave = () => {
      cancelAnimationFrame(frame);
      frame = 0;
      paintedRef.current.hover(undefined);
    };
    element.addEventListener('click', onClick);
    element.addEventListener('pointermove', onPointerMove);
    element.addEventListener('pointerleave', onPointerLeave);
    return () => {
      cancelAnimationFrame(frame);
      element.removeEventListener('click', onClick);
      element.removeEventListener('pointermove', onPointerMove);
      element.removeEventListener('pointerleave', onPointerLeave);
    };
  }, [root]);

  const cardHighlight = cardId ? highlights.find((h) => h.id === cardId) : undefined;
  const lastRect = useRef(new DOMRect());
  const cardAnchor = useRef<Measurable | null>(null);
  // Highlights are repainted on every change, so the card looks its highlight up each time it measures.
  cardAnchor.current = {
    getBoundingClientRect: () => {
      const range = cardId ? paintedRef.current.rangeOf(cardId) : undefined;
      if (range) lastRect.current = highlightRects(range)[0] ?? lastRect.current;
      return lastRect.current;
    },
  };

  return (
    <>
      {reattaching && <ReattachBar highlight={reattaching} onCancel={onReattachEnd} />}
      {selection && reattaching && <AttachTooltip selection={selection} onAttach={() => void attach()} />}
      {selection && !reattaching && (
        <SelectionTooltip
          selection={selection}
          highlightStyle={highlightStyle}
          onStyle={setHighlightStyle}
          onColour={colour}
        />
      )}
      <ImageHighlighter root={root} actions={actions} />
      {cardHighlight && (
        <Suspense fallback={null}>
          <HighlightCard
            key={cardHighlight.id}
            highlight={cardHighlight}
            note={note}
            anchor={cardAnchor}
            actions={actions}
            onClose={() => setCardId(null)}
          />
        </Suspense>
      )}
    </>
  );
}

/** Hovering (or tapping) an image in the article offers "Highlight image". */
function ImageHighlighter({
  root,
  actions,
}: {
  root: RefObject<HTMLElement | null>;
  actions: HighlightActions;
}) {
  const { t } = useTranslation();
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  const hideTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => {
    const element = root.current;
    if (!element) return;
    const offer = (event: Event) => {
      const target = event.target as Element;
      if (
        !(target instanceof HTMLImageElement) ||
        target.dataset.highlightId ||
        !/^https?:/i.test(target.src)
      )
        return;
      clearTimeout(hideTimer.current);
      setImage(target);
    };
    const leave = (event: MouseEvent) => {
      if (!(event.target instanceof HTMLImageElement)) return;
      hideTimer.current = setTimeout(() => setImage(null), IMAGE_BUTTON_GRACE_MS);
    };
    element.addEventListener('mouseover', offer);
    element.addEventListener('mouseout', leave);
    element.addEventListener('click', offer);
    return () => {
      element.removeEventListener('mouseover', offer);
      element.removeEventListener('mouseout', leave);
      element.removeEventListener('click', offer);
      clearTimeout(hideTimer.current);
    };
  }, [root]);
  if (!image?.isConnected) return null;
  const rect = image.getBoundingClientRect();
  return createPortal(
    <button
      type="button"
      className="button image-highlight-button"
      data-testid="image-highlight"
      style={{ top: rect.top + window.scrollY + 8, left: rect.left + window.scrollX + 8 }}
      onMouseEnter={() => clearTimeout(hideTimer.current)}
      onMouseLeave={() => setImage(null)}
      onClick={() => {
        const imageUrl = imageSourceOf(image);
        setImage(null);
        void actions.create({ coreType: CoreType.image, imageUrl, slotId: DEFAULT_SLOT });
      }}
    >
      {t('highlights.highlightImage')}
    </button>,
    document.body,
  );
}
