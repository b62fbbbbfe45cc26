import { type DragEvent, useEffect, useRef, useState } from 'react';
import { DRAG } from '../../../src/constants.ts';
import { NOTES_TYPE } from './drag-source.ts';

function draggedIds(event: DragEvent): string[] {
  try {
    const ids: unknown = JSON.parse(event.dataTransfer.getData(NOTES_TYPE) || '[]');
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * A sidebar drop target for dragged notes. It lights up only after the pointer has rested on it
 * for the spec's 200 ms, so sweeping across the sidebar does not flicker every entry.
 */
export function useDropTarget(onDropNotes: (ids: string[]) => void) {
  const [hover, setHover] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const depth = useRef(0);
  useEffect(() => () => clearTimeout(timer.current), []);
  const reset = () => {
    clearTimeout(timer.current);
    depth.current = 0;
    setHover(false);
  };
  const accepts = (event: DragEvent) => event.dataTransfer.types.includes(NOTES_TYPE);
  return {
    'data-drop-hover': hover || undefined,
    onDragEnter(event: DragEvent) {
      if (!accepts(event)) return;
      event.preventDefault();
      depth.current += 1;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setHover(true), DRAG.debounceMs);
    },
    onDragOver(event: DragEvent) {
      if (!accepts(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
    },
    onDragLeave() {
      depth.current -= 1;
      if (depth.current <= 0) reset();
    },
    onDrop(event: DragEvent) {
      if (!accepts(event)) return;
      event.preventDefault();
      reset();
      const ids = draggedIds(event);
      if (ids.length) onDropNotes(ids);
    },
  };
}
