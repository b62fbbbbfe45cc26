import iconv from 'iconv-lite';

// Turns a fetched HTML body into a string. The encoding comes from, in order: a byte-order mark
// (the HTML standard ranks it above the header, as browsers do), the Content-Type charset, a
// <meta charset> / http-equiv declaration in the first bytes, else UTF-8.

const SNIFF_BYTES = 4096;

// Labels that name a subset of an encoding iconv-lite knows under a wider name (WHATWG mappings).
const ENCODING_ALIASES: Record<string, string> = {
  gb2312: 'gb18030',
  gbk: 'gb18030',
  'x-gbk': 'gb18030',
  gb_2312: 'gb18030',
  'gb_2312-80': 'gb18030',
  chinese: 'gb18030',
  csgb2312: 'gb18030',
  'euc-cn': 'gb18030',
  'big5-hkscs': 'big5hkscs',
  'x-x-big5': 'big5',
  'cn-big5': 'big5',
  'shift-jis': 'shift_jis',
  sjis: 'shift_jis',
  'x-sjis': 'shift_jis',
  ms_kanji: 'shift_jis',
  'windows-31j': 'cp932',
  'euc-kr': 'cp949',
  'ks_c_5601-1987': 'cp949',
  'iso-ir-149': 'cp949',
  'iso-8859-1': 'windows-1252',
  latin1: 'windows-1252',
  'us-ascii': 'windows-1252',
  ascii: 'windows-1252',
  // A document that declares UTF-16 in a <meta> tag is ASCII-compatible, so it is not UTF-16.
  'utf-16': 'utf-8',
  'utf-16le': 'utf-8',
  'utf-16be': 'utf-8',
};

function normaliseLabel(label: string | null | undefined): string | null {
  if (!label) return null;
  const cleaned = label
    .trim()
    .replace(/^["']|["']$/g, '')
    .toLowerCase();
  if (!cleaned) return null;
  const encoding = ENCODING_ALIASES[cleaned] ?? cleaned;
  return iconv.encodingExists(encoding) ? encoding : null;
}

function charsetFromContentType(contentType: string | null): string | null {
  const match = contentType?.match(/charset\s*=\s*("[^"]*"|'[^']*'|[^;\s]+)/i);
  return normaliseLabel(match?.[1]);
}

function encodingFromBom(body: Buffer): string | null {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return null;
}

function encodingFromMeta(body: Buffer): string | null {
  const head = body.subarray(0, SNIFF_BYTES).toString('latin1');
  for (const [tag] of head.matchAll(/<meta\b[^>]*>/gi)) {
    const charset = tag.match(/\bcharset\s*=\s*["']?\s*([^\s"'/>;]+)/i);
    if (charset) {
      const encoding = normaliseLabel(charset[1]);
      if (encoding) return encoding;
    }
  }
  return null;
}

// Most pages are UTF-8: the built-in decoder gives iconv-lite's output (U+FFFD for each bad
// sequence, a leading BOM dropped) in about half the time.
const UTF8_NAMES = new Set(['utf-8', 'utf8']);
const utf8 = new TextDecoder('utf-8');

export function decodeHtml(body: Buffer, contentType: string | null): string {
  const encoding =
    encodingFromBom(body) ?? charsetFromContentType(contentType) ?? encodingFromMeta(body) ?? 'utf-8';
  return UTF8_NAMES.has(encoding) ? utf8.decode(body) : iconv.decode(body, encoding, { stripBOM: true });
}
