/**
 * One note per URL per user: the URL is normalised first — fragment dropped, tracking
 * parameters removed, host lower-cased, default port dropped. Returns null for anything that
 * is not an absolute http(s) URL.
 */
const TRACKING_PARAMS =
  /^(utm_[a-z_]+|fbclid|gclid|dclid|gbraid|wbraid|msclkid|mc_cid|mc_eid|igshid|yclid|twclid|_hsenc|_hsmi|mkt_tok|spm|scm|ref_src|ref_url|vero_id|oly_anon_id|oly_enc_id|__twitter_impression|share_source|share_medium|from_source)$/i;

export const NOTE_URL_MAX = 4096;

/** An absolute http(s) URL written out (`https://…`) that the URL parser accepts: a host, in range, of valid characters. */
export function isWebUrl(text: string): boolean {
  return /^https?:\/\//i.test(text) && URL.canParse(text);
}

export function normalizeNoteUrl(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  url.username = '';
  url.password = '';
  for (const key of [...url.searchParams.keys()]) if (TRACKING_PARAMS.test(key)) url.searchParams.delete(key);
  if (url.searchParams.size === 0) url.search = '';
  const normalized = url.toString();
  return normalized.length <= NOTE_URL_MAX ? normalized : null;
}

/** A web address typed without its scheme: a host with a dot (example.com, 127.0.0.1, 例子.中国) or localhost. */
const BARE_HOST = /^(?:[^\s/?#@:.]+(?:\.[^\s/?#@:.]+)+|localhost)(?::\d{1,5})?(?:[/?#]|$)/iu;

/**
 * One word the user typed as a web address, https assumed when it has no scheme
 * ("example.com/a"); null when it is not one (another scheme, or a word like "hello").
 */
export function typedNoteUrl(word: string): string | null {
  const text = word.trim();
  const url = /^https?:\/\//i.test(text) ? text : BARE_HOST.test(text) ? `https://${text}` : null;
  // The server normalises it (normalizeNoteUrl); the home route need not carry that.
  return url && url.length <= NOTE_URL_MAX && URL.canParse(url) ? url : null;
}

/**
 * The web addresses in what the user typed or pasted, one per word (a URL holds no white space,
 * so a list pasted one per line splits too), and the words that are not one, in order.
 */
export function splitTypedUrls(text: string): { urls: string[]; rest: string[] } {
  const urls: string[] = [];
  const rest: string[] = [];
  for (const word of text.split(/\s+/)) {
    if (!word) continue;
    const url = typedNoteUrl(word);
    if (url) urls.push(url);
    else rest.push(word);
  }
  return { urls, rest };
}
