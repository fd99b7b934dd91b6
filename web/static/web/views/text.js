// Translated sentences with elements in them, and the numbers of ratings (docs/languages.md).

import { formatNumber, gettext, interpolate, language } from "../i18n.js";

/** `fill(format, {name: h("strong", ...)})`, `format` being a translated sentence such as
 *  "%(name)s plays": the sentence as a list of its text and the values in their places (elements stay elements), for
 *  `h`. Numbers are formatted for the page's language, like `interpolate`. */
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

const formats = new Map();

/** `n` with exactly `digits` decimals in the page's language ("25.3"; `sign`: "+0.25"), the
 *  digits 0-9 in every language (as i18n.js's formatNumber). */
export function decimal(n, digits = 1, { sign = false } = {}) {
  const key = `${digits}${sign}`;
  if (!formats.has(key)) {
    formats.set(
      key,
      new Intl.NumberFormat(`${language}-u-nu-latn`, {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
        signDisplay: sign ? "always" : "auto",
      }),
    );
  }
  return formats.get(key).format(n);
}

/** A season's name as players read it: the server's default "Season 4" in the page's language,
 *  a name staff gave it as it is. */
export function seasonName(season) {
  if (season.name === `Season ${season.number}`) {
    return interpolate(gettext("Season %(number)s"), { number: season.number });
  }
  return season.name;
}
