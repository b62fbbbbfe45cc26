import { describe, expect, test } from 'vitest';
import { publicBaseUrl } from '../../server/public-base-url.ts';
import { absoluteMarginLinks } from '../../src/deep-link.ts';

describe('links that leave Margin', () => {
  test("a daily note's relative Margin links become absolute; other links stay", () => {
    const stored =
      '> Quoted\n\n— [Title](/?pi=n1&vs=article) · [↗](/?nx=h1&vs=article)\n[site](https://example.com/?q=1) [rel](/about)';
    expect(absoluteMarginLinks(stored, 'https://margin.example/')).toBe(
      '> Quoted\n\n— [Title](https://margin.example/?pi=n1&vs=article) · [↗](https://margin.example/?nx=h1&vs=article)\n[site](https://example.com/?q=1) [rel](/about)',
    );
    expect(absoluteMarginLinks(stored, '')).toBe(stored);
  });

  test('the base URL is PUBLIC_URL, else the address the server listens at', () => {
    expect(publicBaseUrl({ publicUrl: 'https://m.example/', host: '0.0.0.0', port: 3000 })).toBe(
      'https://m.example',
    );
    expect(publicBaseUrl({ publicUrl: undefined, host: '0.0.0.0', port: 3000 })).toBe(
      'http://localhost:3000',
    );
    expect(publicBaseUrl({ publicUrl: undefined, host: '127.0.0.1', port: 8080 })).toBe(
      'http://127.0.0.1:8080',
    );
    expect(publicBaseUrl({ publicUrl: undefined, host: '::1', port: 8080 })).toBe('http://[::1]:8080');
  });
});
