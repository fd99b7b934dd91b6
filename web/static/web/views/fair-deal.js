// A fair deal drawn (docs/fairness.md): a seat's seeds and a record's check, as the game page
// and the replay viewer show them.

import { h } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";
import { seatLabel } from "./card-table.js";

/** A long hex value shortened (unless `full`), the whole of it in its title and
 *  `data-value`. */
export function hexValue(value, attrs = {}, { full = false } = {}) {
  const text = String(value ?? "");
  const short = text.length > 20 && !full ? `${text.slice(0, 8)}…${text.slice(-8)}` : text;
  return h(
    "code",
    { class: full ? "hex full" : "hex", title: text, "data-value": text, ...attrs },
    short,
  );
}

/** What the check of the fair deal says, once the game has ended (null before). */
export function fairVerdict(fair) {
  if (!fair) return null;
  const line = (ok, ...text) =>
    h(
      "p",
      { class: `fair-verdict ${ok}`, testid: "fair-verdict", "data-status": fair.status },
      ...text,
    );
  switch (fair.status) {
    case "checking":
      return line("pending", gettext("Checking the deal…"));
    case "verified":
      return line(
        "ok",
        h("strong", {}, gettext("Deal verified")),
        " · ",
        gettext("game seed"),
        " ",
        hexValue(fair.gameSeed),
      );
    case "failed":
      // What disagrees is named as the record names it (docs/fairness.md), not translated.
      return line(
        "bad",
        h("strong", {}, gettext("Deal NOT verified")),
        ": ",
        h("span", { translate: "no", dir: "ltr" }, `${fair.where}: ${fair.detail}`),
      );
    default:
      return line("bad", h("strong", {}, gettext("Deal not checked")), `: ${fair.message}`);
  }
}

/** One human seat's seeds: its commitment, client seed and (revealed) server seed; `full`
 *  writes the hex values out whole (the replay viewer), else shortened. */
export function fairSeat(seat, entry, { full = false } = {}) {
  const hex = (value, testid) => hexValue(value, { testid }, { full });
  return h(
    "li",
    { testid: "fair-seat", "data-seat": entry.seat, class: full ? "full" : null },
    h(
      "span",
      { class: "seat-name" },
      seat ? seatLabel(seat) : interpolate(gettext("Seat %(n)s"), { n: entry.seat }),
    ),
    h("span", {}, gettext("commitment"), " ", hex(entry.commitment, "fair-commitment")),
    h(
      "span",
      {},
      gettext("client seed"),
      " ",
      h(
        "code",
        { class: "seed", testid: "fair-client-seed", "data-value": entry.client_seed },
        entry.client_seed,
      ),
    ),
    "server_seed" in entry
      ? h("span", {}, gettext("server seed"), " ", hex(entry.server_seed, "fair-server-seed"))
      : null,
  );
}
