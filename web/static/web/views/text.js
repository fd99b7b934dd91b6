// The numbers of ratings and the names of seasons as players read them (docs/languages.md).

import { formatNumber, gettext, interpolate } from "../i18n.js";

/** `n` with exactly `digits` decimals in the page's language ("25.3"; `sign`: "+0.25"), the
 *  digits 0-9 in every language (as i18n.js's formatNumber). */
export function decimal(n, digits = 1, { sign = false } = {}) {
  return formatNumber(n, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    signDisplay: sign ? "always" : "auto",
  });
}

/** A season's name as players read it: the server's default "Season 4" in the page's language,
 *  a name staff gave it as it is. */
export function seasonName(season) {
  if (season.name === `Season ${season.number}`) {
    return interpolate(gettext("Season %(number)s"), { number: season.number });
  }
  return season.name;
}
