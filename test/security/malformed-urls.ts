// Addresses a user could type or a script could send wherever Margin takes a URL: other schemes,
// hosts that are empty, broken or out of range, characters that cannot be stored, absurd
// lengths, and a few valid ones written unusually (which each input may accept).

export interface UrlCase {
  label: string;
  url: string;
  /** A usable absolute http(s) URL, only written unusually: an input taking web addresses may accept it. */
  usable: boolean;
}

const LONG_PATH = 'a'.repeat(10_000);

export const URL_CASES: readonly UrlCase[] = [
  { label: 'javascript: scheme', url: 'javascript:alert(1)', usable: false },
  { label: 'file: scheme', url: 'file:///etc/passwd', usable: false },
  { label: 'data: scheme', url: 'data:text/html,x', usable: false },
  { label: 'ftp: scheme', url: 'ftp://x', usable: false },
  { label: 'http with no host', url: 'http://', usable: false },
  { label: 'https with no host', url: 'https://', usable: false },
  { label: 'scheme-relative', url: '//x', usable: false },
  { label: 'unclosed IPv6 host', url: 'https://[::1', usable: false },
  { label: 'space in the host', url: 'https://a b', usable: false },
  { label: 'percent-encoded NUL host', url: 'https://%00', usable: false },
  { label: 'NUL in the host', url: 'https://\u0000x', usable: false },
  { label: 'lone surrogate', url: 'https://example.com/\uD800', usable: false },
  { label: 'port out of range', url: 'https://x:99999', usable: false },
  { label: '10 000 characters', url: `https://example.com/${LONG_PATH}`, usable: false },
  { label: 'upper-case scheme and host', url: 'HTTPS://EXAMPLE.COM', usable: true },
  { label: 'non-ASCII host', url: 'https://例子.测试/页面', usable: true },
  { label: 'user and password', url: 'https://u:p@x.example/', usable: true },
];

/** A query value as a client writes it; a lone surrogate (no UTF-8 form) as the bytes of its WTF-8 form. */
export function queryValue(text: string): string {
  return [...text]
    .map((char) => {
      const unit = char.charCodeAt(0);
      if (!/\p{Cs}/u.test(char)) return encodeURIComponent(char);
      return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    })
    .join('');
}
