import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeHtml } from '../../server/domain/clip/decode.ts';

const page = (text: string, head = ''): string =>
  `<html><head>${head}</head><body><p>${text}</p></body></html>`;

describe('decodeHtml', () => {
  it('defaults to UTF-8', () => {
    expect(decodeHtml(Buffer.from(page('naïve café 日本')), null)).toContain('naïve café 日本');
  });

  it('uses the Content-Type charset', () => {
    const body = iconv.encode(page('中文内容'), 'gb18030');
    expect(decodeHtml(body, 'text/html; charset=GBK')).toContain('中文内容');
  });

  it('treats gb2312 as gb18030 so characters outside GB2312 survive', () => {
    const body = iconv.encode(page('镕'), 'gb18030');
    expect(decodeHtml(body, 'text/html; charset="gb2312"')).toContain('镕');
  });

  it('sniffs <meta charset> when the header has none', () => {
    const body = iconv.encode(page('繁體中文', '<meta charset="big5">'), 'big5');
    expect(decodeHtml(body, 'text/html')).toContain('繁體中文');
  });

  it('sniffs an http-equiv Content-Type declaration', () => {
    const head = '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">';
    expect(decodeHtml(iconv.encode(page('日本語のテキスト', head), 'shift_jis'), null)).toContain(
      '日本語のテキスト',
    );
  });

  it('decodes EUC-KR', () => {
    const body = iconv.encode(page('한국어 텍스트', '<meta charset="euc-kr">'), 'euc-kr');
    expect(decodeHtml(body, null)).toContain('한국어 텍스트');
  });

  it('follows a byte-order mark and strips it', () => {
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(page('é'))]);
    const decoded = decodeHtml(utf8, null);
    expect(decoded.startsWith('<html>')).toBe(true);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(page('é'), 'utf16le')]);
    expect(decodeHtml(utf16, 'text/html; charset=iso-8859-1')).toContain('<p>é</p>');
  });

  it('falls back to UTF-8 for an unknown charset label', () => {
    expect(decodeHtml(Buffer.from(page('ü')), 'text/html; charset=x-unknown')).toContain('ü');
  });
});
