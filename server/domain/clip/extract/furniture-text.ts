// What page furniture says, for the blocks whose markup does not give them away: a block is
// judged by its whole text (whitespace collapsed), and only a short one, so that a paragraph of
// the article that mentions a newsletter or a date is never mistaken for furniture.

/** Labels that stand alone as a block: "Advert", "Comments", "12 comments", "Don't miss". */
const LABEL =
  /^(?:\d+\s+)?(?:advert|advertisement|anzeige|publicidad|publicité|comments?|tags?|share(?: this)?|don['’]?t miss|read more|see more|related(?: articles| stories| posts)?)[\s:.!…]*$/i;
const MAX_LABEL_LENGTH = 40;

/** A picture's credit line ("Photo: …", "Фото: …") or a gallery's counter ("Image 1 of 8"). */
const CREDIT =
  /^(?:(?:photo(?:graph)?|image|picture|foto|фото)s?(?:\s+credit)?|credits?|image courtesy)\s*[:：]|^(?:image|photo|picture|slide)\s+\d+\s+(?:of|\/)\s+\d+$/i;
const MAX_CREDIT_LENGTH = 120;

/** "See also: <link>", the in-body teaser of another article, in a few languages. */
export const SEE_ALSO =
  /^(?:see (?:also|more)|read (?:also|more)|more|related|don['’]?t miss|leggi anche|lesen sie auch|lire aussi|leia também|lea también|ver también|читайте также)\b[^\p{L}\p{N}]*/iu;

// What closes an article without being part of it: calls to subscribe, follow or share, and the
// contributor line. (A copyright notice is left: wire stories end on theirs, as part of the text.)
const CLOSING =
  /\b(?:subscribe|newsletters?|sign up|inbox|follow\b.{0,40}\b(?:us|twitter|facebook|instagram)|share it|click here|tell us what you think|contributed (?:reporting|to this report)|additional reporting|requires javascript)\b/i;
const MAX_CLOSING_LENGTH = 400;

// A dateline or byline above the article: a date (a year with a month or a clock time) in a short
// line that is no sentence, or the reading time.
const YEAR = /\b(?:19|20)\d{2}\b/;
const DATE_PART =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|janeiro|fevereiro|março|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro|enero|febrero|marzo|mayo|junio|julio|septiembre|octubre|noviembre|diciembre)\b\.?|\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b|\b\d{1,2}:\d{2}\b/i;
const READING_TIME =
  /^(?:tempo de leitura|tiempo de lectura|reading time|lesezeit)\b|^\d+\s*min(?:ute)?s?\s+read$/i;
const SENTENCE_END = /[.!?。]$/;
const MAX_DATELINE_LENGTH = 100;

export function isFurnitureLabel(text: string): boolean {
  return (
    (text.length <= MAX_LABEL_LENGTH && LABEL.test(text)) ||
    (text.length <= MAX_CREDIT_LENGTH && CREDIT.test(text))
  );
}

export function isClosingFurniture(text: string): boolean {
  return text.length <= MAX_CLOSING_LENGTH && (CLOSING.test(text) || isFurnitureLabel(text));
}

export function isDateline(text: string): boolean {
  if (text.length > MAX_DATELINE_LENGTH || SENTENCE_END.test(text)) return false;
  return READING_TIME.test(text) || (YEAR.test(text) && DATE_PART.test(text));
}
