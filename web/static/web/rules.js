// The rules keys of docs/rules.md §9 and §12 as the client offers them, each with its label and
// the text of its values; the defaults, the presets' keys and the seats come from the server.

import { gettext, pgettext } from "./i18n.js";
import { api } from "./transport/rest.js";

const YES_NO = [
  ["false", gettext("no")],
  ["true", gettext("yes")],
];
const bool = (v) => v === "true";

/** Every key a host may choose, in the order the form shows them. `options` are
 *  `[value as the form holds it, text]`; `parse` turns the form's string into the JSON value. */
export const RULES = [
  {
    key: "decks",
    label: gettext("Decks"),
    options: [
      ["1", gettext("one (2-5 players)")],
      ["2", gettext("two (2-8 players)")],
    ],
    parse: Number,
  },
  {
    key: "jokers",
    label: gettext("Jokers per deck"),
    options: [
      ["2", "2"],
      ["0", gettext("none")],
    ],
    parse: Number,
  },
  {
    key: "hand_size",
    label: gettext("Cards dealt"),
    options: [5, 6, 7, 8].map((n) => [String(n), String(n)]),
    parse: Number,
  },
  {
    key: "direction",
    label: gettext("Play goes"),
    options: [
      ["clockwise", gettext("clockwise")],
      ["counterclockwise", gettext("counterclockwise")],
    ],
  },
  {
    key: "values",
    label: gettext("Card values"),
    options: [
      ["standard", gettext("standard (faces 10)")],
      ["jacks_zero", gettext("jacks 0")],
      ["faces_high", gettext("J 11, Q 12, K 13")],
    ],
  },
  {
    key: "joker_value",
    label: gettext("A joker is worth"),
    options: [
      ["0", "0"],
      ["20", "20"],
    ],
    parse: Number,
  },
  {
    key: "call_limit",
    label: gettext("Call limit (Yaniv at or below)"),
    type: "number",
    min: 0,
    max: 15,
  },
  {
    key: "first_turn_call",
    label: gettext("Yaniv on the first turn"),
    options: [
      ["true", gettext("allowed")],
      ["false", gettext("not allowed")],
    ],
    parse: bool,
  },
  {
    key: "final_turns",
    label: gettext("After a call, the others play once more"),
    options: YES_NO,
    parse: bool,
  },
  {
    key: "draw_from",
    label: gettext("Draw from the last group"),
    options: [
      ["ends", gettext("its ends")],
      ["any_of_last", gettext("any of its cards")],
    ],
  },
  {
    key: "assaf_penalty_rule",
    label: gettext("Assaf costs the caller"),
    options: [
      ["fixed", gettext("the penalty below")],
      ["twice_highest", gettext("twice the highest hand")],
    ],
  },
  { key: "assaf_penalty", label: gettext("Assaf penalty"), type: "number", min: 0, max: 100 },
  {
    key: "assaf_scores",
    label: gettext("On Assaf, the others score"),
    options: [
      ["hand", gettext("their hand")],
      ["zero", gettext("zero for the lowest")],
    ],
  },
  {
    key: "exact_scores",
    label: gettext("Exact scores"),
    options: [
      ["100_200", gettext("100 → 50, 200 → 100")],
      ["halve_50", gettext("halve multiples of 50")],
      ["none", gettext("no drops")],
    ],
  },
  {
    key: "ending",
    label: gettext("The game ends"),
    options: [
      ["out_over_100", gettext("out over 100")],
      ["out_over_200", gettext("out over 200")],
      ["out_at_100", gettext("out at 100")],
      ["out_at_200", gettext("out at 200")],
      ["first_over_100", gettext("when anyone passes 100")],
      ["first_at_200", gettext("when anyone reaches 200")],
    ],
  },
  { key: "wild_rank", label: gettext("A wild card each round"), options: YES_NO, parse: bool },
  { key: "sevens", label: gettext("A seven makes the others draw"), options: YES_NO, parse: bool },
  { key: "spy_queen", label: gettext("The queen of diamonds spies"), options: YES_NO, parse: bool },
  {
    key: "turn_seconds",
    label: gettext("Turn limit"),
    options: [
      ["", gettext("none")],
      ["30", gettext("30 s")],
      ["60", gettext("60 s")],
    ],
    parse: (v) => (v ? Number(v) : null),
  },
];

/** The presets' names as the client shows them; their keys come from `GET /rules/`. */
const PRESET_TITLES = {
  standard: pgettext("variant", "Standard Yaniv"),
  nepalese: pgettext("variant", "Nepalese"),
  dhumbal: pgettext("variant", "Dhumbal"),
  yellow_lemon: pgettext("variant", "Yellow Lemon"),
  least_count: pgettext("variant", "Least Count"),
  declare: pgettext("variant", "Declare"),
};

/** A preset's name to show ("Least Count"), or its key spelled out for one added since. */
export const presetTitle = (preset) => PRESET_TITLES[preset] ?? preset.replaceAll("_", " ");

let catalog = null;

/** `GET /rules/` (docs/api.md, Variants), read once: the defaults, each preset's keys
 *  resolved, and the most seats by decks. */
export async function rulesCatalog() {
  catalog ??= await api("GET", "rules/");
  return catalog;
}

/** The most seats `decks` allow, as the catalog says (docs/rules.md §12, Two decks). */
export const maxPlayers = (rules, decks) => rules.max_players[String(decks)];

/** Every key's value as the form holds it (a string) under `preset`, from the catalog. */
export function presetValues(rules, preset) {
  const chosen = rules.presets.find((entry) => entry.preset === preset)?.rules ?? rules.defaults;
  const values = {};
  for (const rule of RULES)
    values[rule.key] = chosen[rule.key] === null ? "" : String(chosen[rule.key]);
  return values;
}

/** The JSON value of a key from the form's string. */
export function parseRule(rule, raw) {
  if (rule.type === "number") return Number(raw);
  return rule.parse ? rule.parse(raw) : raw;
}

/** How a table shows a key's value: the form's text for it, else the value itself. */
export function ruleText(key, value) {
  const rule = RULES.find((r) => r.key === key);
  const raw = value === null ? "" : String(value);
  const option = rule?.options?.find(([v]) => v === raw);
  return option ? option[1] : value === null ? gettext("none") : raw;
}

/** The label of a key ("Decks"), or the key spelled out. */
export const ruleLabel = (key) =>
  RULES.find((r) => r.key === key)?.label ?? key.replaceAll("_", " ");
