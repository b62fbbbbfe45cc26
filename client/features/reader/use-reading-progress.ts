import { useQueryClient } from '@tanstack/react-query';
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import superjson from 'superjson';
import type { NoteDetail, ReadingProgress, SaveProgressInput } from '../../../src/schemas/notes.ts';
import { useTRPC, useTRPCClient } from '../../trpc.ts';
import { readingPosition, scrollFraction, scrollTopFor } from './reading-position.ts';

/** Saved once scrolling has rested this long. */
const SAVE_AFTER_MS = 1000;
/** A restored place follows the layout (images, fonts) this long unless the reader moves first. */
const FOLLOW_LAYOUT_MS = 5000;
const USER_INPUT = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

const sameProgress = (a: ReadingProgress | null, b: ReadingProgress) =>
  a !== null && a.offset === b.offset && Math.abs(a.fraction - b.fraction) < 0.005;

/** A save that outlives the page (closing the tab, the phone putting it away): tRPC's wire format by hand. */
function sendOnLeaving(input: SaveProgressInput) {
  void fetch('/trpc/notes.saveProgress', {
    method: 'POST',
    keepalive: true,
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: superjson.stringify(input),
  }).catch(() => {});
}

/**
 * The note's reading progress: it opens where it was left (on this device or another) unless a
 * link asks for a highlight, and where the reader is goes to the server when scrolling rests, when
 * the page is hidden or left, and when the reader closes. Answers the share read, for the bar.
 */
export function useReadingProgress(
  root: RefObject<HTMLElement | null>,
  note: NoteDetail | undefined,
  restore: boolean,
): number {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [fraction, setFraction] = useState(0);
  const noteId = note?.id;
  const hasContent = Boolean(note?.contentHtml);
  const savedRef = useRef<ReadingProgress | null>(note?.readingProgress ?? null);
  const initial = useRef(note?.readingProgress ?? null);
  initial.current ??= note?.readingProgress ?? null;

  // Opens where it was left; the place is kept while images and fonts settle the layout.
  const restored = useRef(false);
  useEffect(() => {
    const element = root.current;
    if (restored.current || !hasContent || !element) return;
    restored.current = true;
    const saved = initial.current;
    if (!restore || !saved || (saved.offset === 0 && saved.fraction === 0)) return;
    // Where this hook last put the page: a scroll anywhere else is the reader's (or the
    // browser keeping the place by itself), and ends the following.
    let placedAt = -1;
    const place = () => {
      const top = scrollTopFor(element, saved.offset);
      const room = document.documentElement.scrollHeight - window.innerHeight;
      window.scrollTo({ top: top ?? saved.fraction * room, behavior: 'instant' });
      placedAt = window.scrollY;
      savedRef.current = readingPosition(element);
    };
    const onScroll = () => {
      if (Math.abs(window.scrollY - placedAt) > 2) stop();
    };
    place();
    const observer = new ResizeObserver(place);
    observer.observe(element);
    const stop = () => {
      observer.disconnect();
      clearTimeout(timer);
      window.removeEventListener('scroll', onScroll);
      for (const type of USER_INPUT) window.removeEventListener(type, stop);
    };
    const timer = setTimeout(stop, FOLLOW_LAYOUT_MS);
    window.addEventListener('scroll', onScroll, { passive: true });
    for (const type of USER_INPUT) window.addEventListener(type, stop, { passive: true });
    return stop;
  }, [root, hasContent, restore]);

  // Where the reader is: the bar follows every frame, the server hears once scrolling rests.
  const save = useRef<(leaving: boolean) => void>(() => {});
  useEffect(() => {
    const element = root.current;
    if (!noteId || !hasContent || !element) return;
    let frame = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let moved = false;
    save.current = (leaving) => {
      clearTimeout(timer);
      if (!moved || !element.isConnected) return;
      moved = false;
      const progress = readingPosition(element);
      if (sameProgress(savedRef.current, progress)) return;
      savedRef.current = progress;
      const input = { id: noteId, ...progress };
      if (leaving) sendOnLeaving(input);
      else void client.notes.saveProgress.mutate(input).catch(() => {});
    };
    const onScroll = () => {
      moved = true;
      clearTimeout(timer);
      timer = setTimeout(() => save.current(false), SAVE_AFTER_MS);
      if (!frame)
        frame = requestAnimationFrame(() => {
          frame = 0;
          setFraction(scrollFraction());
        });
    };
    const onHidden = () => {
      if (document.visibilityState === 'hidden') save.current(true);
    };
    const onPageHide = () => save.current(true);
    setFraction(scrollFraction());
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll, { passive: true });
    window.addEventListener('pagehide', onPageHide);
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
      window.removeEventListener('pagehide', onPageHide);
      document.removeEventListener('visibilitychange', onHidden);
    };
  }, [root, noteId, hasContent, client]);

  // Closing the reader: measured while its article is still laid out (a layout effect's cleanup
  // runs before React removes the DOM; a passive one's after). The cached note then learns where
  // it was left, so opening it again here starts there too.
  useLayoutEffect(
    () => () => {
      save.current(false);
      const progress = savedRef.current;
      if (noteId && progress)
        queryClient.setQueryData(trpc.notes.get.queryKey({ id: noteId }), (old) =>
          old ? { ...old, readingProgress: progress } : old,
        );
    },
    [noteId, queryClient, trpc],
  );

  return fraction;
}
