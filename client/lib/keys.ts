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
