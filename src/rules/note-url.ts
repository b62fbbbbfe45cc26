/**
 * One note per URL per user: the URL is normalised first — fragment dropped, tracking
 * parameters removed, host lower-cased, default port dropped. Returns null for anything that
 * is not an absolute http(s) URL.
 */
const TRACKING_PARAMS =
  /^(utm_[a-z_]+|fbclid|gclid|dclid|gbraid|wbraid|msclkid|mc_cid|mc_eid|igshid|yclid|twclid|_hsenc|_hsmi|mkt_tok|spm|scm|ref_src|ref_url|vero_id|oly_anon_id|oly_enc_id|__twitter_impression|share_source|share_medium|from_source)$/i;

export const NOTE_URL_MAX = 4096;

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
