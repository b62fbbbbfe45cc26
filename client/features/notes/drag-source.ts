import { type DragEvent, type PointerEvent, useRef } from 'react';
import { DRAG } from '../../../src/constants.ts';

/** The drag payload type: the ids of the notes being dragged. */
export const NOTES_TYPE = 'application/x-margin-notes';

/**
 * Props that make a list row draggable. The spec's 4 px margin: a press that has not moved
 * that far yet does not start a drag (so a slightly shaky click still opens the note).
 */
export function useDragSource(ids: () => string[]) {
  const press = useRef<{ x: number; y: number; moved: number } | null>(null);
  const distance = (x: number, y: number) => {
    const p = press.current;
    return p ? Math.max(p.moved, Math.hypot(x - p.x, y - p.y)) : 0;
  };
  return {
    draggable: true,
    onPointerDown(event: PointerEvent) {
      press.current = { x: event.clientX, y: event.clientY, moved: 0 };
    },
    onPointerMove(event: PointerEvent) {
      if (press.current) press.current.moved = distance(event.clientX, event.clientY);
    },
    onDragStart(event: DragEvent) {
      if (press.current && distance(event.clientX, event.clientY) < DRAG.marginPx) {
        event.preventDefault();
        return;
      }
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData(NOTES_TYPE, JSON.stringify(ids()));
    },
    onDragEnd() {
      press.current = null;
    },
  };
}
