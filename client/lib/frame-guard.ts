/**
 * The app refuses to run inside a frame: it sends the top window to itself. When the browser
 * forbids that (a cross-origin frame without a user gesture), it still refuses to render.
 * Returns true when the app may start.
 */
export function escapeFrames(): boolean {
  if (window.top === window.self) return true;
  try {
    if (window.top) window.top.location.href = window.location.href;
  } catch {
    // Blocked by the browser; fall through to refusing.
  }
  return false;
}
