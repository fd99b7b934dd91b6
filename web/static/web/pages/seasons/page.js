// `/seasons` and `/seasons/<number>`: a season's leaderboard (GET /seasons/{number}/leaderboard/),
// the current season's unless another is picked, a page at a time. Picking a season reads its
// leaderboard without drawing the page anew (the picker keeps the keyboard's focus) and puts
// its number in the address.

import { errorLine, h } from "../../dom.js";
import { gettext } from "../../i18n.js";
import { createStore, mount } from "../../store.js";
import { allPages, api } from "../../transport/rest.js";
import { session } from "../../transport/session.js";
import { initialState, reduce } from "./store.js";
import { boardView, PAGE, pagerView, pickerView, seasonView } from "./views.js";

export async function seasonsPage(root, [number], app) {
  app.title(gettext("Seasons"));
  const offset = Math.max(0, Number(new URLSearchParams(location.search).get("offset")) || 0);
  const seasons = await allPages("seasons/?limit=100");
  const asked = number === undefined ? null : Number(number);
  const store = createStore(
    reduce,
    initialState({ seasons, number: asked, offset, me: session.me }),
  );
  const { dispatch } = store;

  async function read() {
    const { number, offset } = store.state;
    if (number === null) return;
    try {
      const path = `seasons/${number}/leaderboard/?limit=${PAGE}&offset=${offset}`;
      dispatch({ type: "board", number, offset, page: await api("GET", path) });
    } catch (error) {
      dispatch({ type: "error", message: error.message });
    }
  }
  const actions = {
    pick(picked) {
      history.pushState(null, "", `/seasons/${picked}`);
      dispatch({ type: "pick", number: picked, offset: 0 });
      read();
    },
  };

  const part = (tag, attrs, slice, view) => {
    const el = h(tag, attrs);
    mount(store, el, slice, view);
    return el;
  };
  root.replaceChildren(
    h("h1", {}, gettext("Season leaderboard")),
    h(
      "p",
      { class: "muted" },
      gettext(
        "Each season ranks the players placed in it by ordinal (mu − 3 sigma): live for the current season, as it ended for a finished one.",
      ),
      " ",
      h("a", { href: "/leaderboard" }, gettext("All-time leaderboard")),
    ),
    part(
      "div",
      {},
      (state) => [state.number],
      (state) => pickerView(state, actions),
    ),
    part("div", {}, (state) => [state.number], seasonView),
    part(
      "div",
      {},
      (state) => [state.error],
      (state) => errorLine(state.error),
    ),
    part("div", {}, (state) => [state.board, state.error], boardView),
    part("p", { class: "row" }, (state) => [state.board], pagerView),
  );
  await read();
  return null;
}
