// The start page's state and its reducer: the player (`me`), their ranked ticket, the page's
// error, which collapsed sections are open, and the new-table form (variant, house rules,
// seats). Pure: no DOM, no fetch.

import { maxPlayers, presetValues } from "../../rules.js";

/** `me` from the session, `catalog` from `GET /rules/`. */
export function initialState({ me, catalog }) {
  return {
    me,
    ticket: me.ticket,
    error: "",
    accountOpen: false,
    rulesOpen: false,
    catalog,
    form: presetForm(catalog, catalog.presets[0].preset, 2),
  };
}

export function reduce(state, action) {
  switch (action.type) {
    case "me": {
      const same = action.me.id === state.me.id; // another player: their forms start closed
      return {
        ...state,
        me: action.me,
        ticket: action.me.ticket,
        accountOpen: same && state.accountOpen,
      };
    }
    case "ticket":
      return { ...state, ticket: action.ticket };
    case "error":
      return { ...state, error: action.message };
    case "account-open":
      return { ...state, accountOpen: action.open };
    case "rules-open":
      return { ...state, rulesOpen: action.open };
    case "preset":
      return { ...state, form: presetForm(state.catalog, action.preset, state.form.seats) };
    case "rule": {
      const values = { ...state.form.values, [action.key]: action.value };
      const seats = fitSeats(state.catalog, values, state.form.seats);
      return { ...state, form: { ...state.form, values, seats } };
    }
    case "seats":
      return { ...state, form: { ...state.form, seats: action.seats } };
    default:
      return state;
  }
}

/** The form under `preset`: every house rule as the preset has it (as the form holds it, a
 *  string), the seats brought within what its decks allow. */
function presetForm(catalog, preset, seats) {
  const values = presetValues(catalog, preset);
  return { preset, values, seats: fitSeats(catalog, values, seats) };
}

const fitSeats = (catalog, values, seats) => Math.min(seats, mostSeats(catalog, values));

/** The most seats the form's decks allow (docs/rules.md §12, Two decks). */
export const mostSeats = (catalog, values) => maxPlayers(catalog, values.decks);
