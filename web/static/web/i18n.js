// The client's language (docs/languages.md): every string a player reads goes through
// `gettext` (or `ngettext` / `pgettext`), so `manage.py i18n make` finds it for the
// `djangojs` catalog. The page says which language it speaks (`<html lang dir>`, chosen by the
// server from the language cookie or the browser's Accept-Language) and carries that
// language's catalog (`<script id="i18n-catalog">`): nothing to fetch, nothing to wait for.
//
// Placeholders are named ("%(name)s called Yaniv", given to `interpolate` with {name}), so a
// translator may move them; never build a sentence from pieces or a template literal.

const root = document.documentElement;
const data = JSON.parse(document.getElementById("i18n-catalog")?.textContent || "{}");
const catalog = data.catalog ?? {};

/** The page's language ("en", "he", "ne", "hi") and its direction ("ltr" or "rtl"). */
export const language = root.lang || "en";
export const direction = root.dir === "rtl" ? "rtl" : "ltr";
/** `[[code, name in its own language], ...]`, for the picker. */
export const languages = data.languages ?? [["en", "English"]];

// Every shipped catalog has two forms, "nplurals=2; plural=(n != 1);" (`i18n check` insists).
const pluralIndex = (n) => (n === 1 ? 0 : 1);

export function gettext(msgid) {
  const found = catalog[msgid];
  if (typeof found === "string" && found) return found;
  if (Array.isArray(found) && found[0]) return found[0];
  return msgid;
}

export function ngettext(singular, plural, n) {
  const found = catalog[singular];
  const index = pluralIndex(n);
  if (Array.isArray(found) && found[index]) return found[index];
  return index === 0 ? singular : plural;
}

/** A string told apart by its context (`pgettext` of "card rank" and "queen"). */
export function pgettext(context, msgid) {
  const found = catalog[`${context}\x04${msgid}`];
  return typeof found === "string" && found ? found : msgid;
}

/** `fill(format, {name: h("strong", ...)})`, `format` being a translated sentence such as
 *  "%(name)s plays": the sentence as a list of its text and the values in their places
 *  (elements stay elements), for `h`. Numbers are formatted for the page's language. */
export function fill(format, values) {
  const parts = [];
  let at = 0;
  for (const match of format.matchAll(/%\((\w+)\)[sd]/g)) {
    parts.push(format.slice(at, match.index));
    const value = values[match[1]];
    parts.push(typeof value === "number" ? formatNumber(value) : (value ?? ""));
    at = match.index + match[0].length;
  }
  parts.push(format.slice(at));
  return parts.filter((part) => part !== "");
}

/** `interpolate("%(n)s points", {n: 3})`: `fill` as one string (named placeholders only).
 *  Numbers are formatted for the page's language unless they are given as strings. */
export function interpolate(format, values) {
  return fill(format, values).map(String).join("");
}

// Digits stay Western Arabic (0-9) in every language: scores, card values and seats read the
// same as on the cards and in the records (Intl's default for he; asked for ne and hi).
const locale = `${language}-u-nu-latn`;
const numberFormats = new Map();

/** `n` in the page's language; `options` as Intl.NumberFormat takes them (each kept once). */
export function formatNumber(n, options = {}) {
  const key = JSON.stringify(options);
  if (!numberFormats.has(key)) numberFormats.set(key, new Intl.NumberFormat(locale, options));
  return numberFormats.get(key).format(n);
}

/** A date and time in the page's language (`dateStyle` / `timeStyle` as Intl takes them). */
export function formatDate(iso, options = { dateStyle: "medium", timeStyle: "short" }) {
  return iso ? new Intl.DateTimeFormat(locale, options).format(new Date(iso)) : "";
}

/** "in 3 minutes", "2 hours ago": `seconds` from now (negative: past). */
export function formatRelative(seconds) {
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  const abs = Math.abs(seconds);
  if (abs < 60) return rtf.format(Math.round(seconds), "second");
  if (abs < 3600) return rtf.format(Math.round(seconds / 60), "minute");
  if (abs < 86400) return rtf.format(Math.round(seconds / 3600), "hour");
  return rtf.format(Math.round(seconds / 86400), "day");
}

/** A list in the language's way: "A, B and C". */
export function formatList(items) {
  return new Intl.ListFormat(locale, { style: "long", type: "conjunction" }).format(items);
}

const COOKIE = "django_language";

/** The picker's choice: kept in the language cookie (the server reads it for the page and
 *  every answer), then the page is drawn again in that language. */
export function chooseLanguage(code) {
  // biome-ignore lint/suspicious/noDocumentCookie: the server reads this cookie (LocaleMiddleware)
  document.cookie = `${COOKIE}=${code}; path=/; max-age=31536000; samesite=lax`;
  location.reload();
}
