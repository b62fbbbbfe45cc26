import type { KeyboardEvent } from 'react';

/** A keydown handler that runs `submit` on Ctrl+Enter or Cmd+Enter instead of typing a newline. */
export function onModEnter(submit: () => void) {
  return (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      submit();
    }
  };
}

/** True when a key goes to something the user types into, which single-letter shortcuts must leave alone. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}
