const ANONYMOUS_NICKNAME = /^nick[0-9]+$/;

/** A nickname of "nick" followed by digits (e.g. nick1024) counts as anonymous. */
export function isAnonymousNickname(name: string | null | undefined): boolean {
  return name != null && ANONYMOUS_NICKNAME.test(name);
}
