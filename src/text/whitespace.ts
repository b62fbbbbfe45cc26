/** Unicode's space separators and line/paragraph breaks, as JavaScript's `\s` knows them, minus the BOM. */
export function isUnicodeSpace(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** JavaScript's `\s`, which is also what String.prototype.trim removes. */
export function isJsWhitespace(code: number): boolean {
  if (code > 0x20 && code < 0xa0) return false;
  return isUnicodeSpace(code) || code === 0xfeff;
}
