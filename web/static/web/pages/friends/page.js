// `/friends`: the player's friends with their presence (live from the me socket), the friend
// requests both ways (accept, decline, withdraw), the players they block (unblock), and a
// search by name to add, challenge or block a player. The store holds the state (store.js),
// the views draw it (views.js), a part at a time.

import { h } from "../../dom.js";
import { fill, gettext } from "../../i18n.js";
import { blockPlayer } from "../../social/blocks.js";
import { sendChallenge } from "../../social/challenges.js";
import { readRelations } from "../../social/friends.js";
import { createStore, mount } from "../../store.js";
import { meFeed } from "../../transport/me-feed.js";
import { allPages, api } from "../../transport/rest.js";
import { session } from "../../transport/session.js";
import { initialState, reduce } from "./store.js";
import {
  blocksView,
  errorView,
  friendsView,
  guestView,
  requestsView,
  resultsView,
  searchForm,
} from "./views.js";

export async function friendsPage(root, _params, app) {
  app.title(gettext("Friends"));
  const store = createStore(reduce, initialState({ me: session.me }));
  const { dispatch } = store;

  const reread = async () => dispatch({ type: "relations", ...(await readRelations()) });
  /** Runs `work`, then reads the lists again; the page's error line says why it failed. */
  const act = async (work) => {
    dispatch({ type: "error", message: "" });
    try {
      await work();
      await reread();
    } catch (error) {
      dispatch({ type: "error", message: error.message });
    }
  };
  const actions = {
    befriend: (player) => act(() => api("POST", "me/friends/", { player_id: player.id })),
    unfriend: (player) => act(() => api("DELETE", `me/friends/${player.id}/`)),
    block: (player) => act(() => blockPlayer(player)),
    unblock: (player) => act(() => api("DELETE", `me/blocks/${player.id}/`)),
    challenge: (player) => act(() => sendChallenge(player.id)),
    search: (query) =>
      act(async () => {
        const search = encodeURIComponent(query);
        const results = await allPages(`players/?search=${search}&limit=50`, 50);
        dispatch({ type: "results", query, results });
      }),
  };

  const part = (tag, attrs, slice, view) => {
    const el = h(tag, attrs);
    mount(store, el, slice, (state) => view(state, actions));
    return el;
  };
  root.replaceChildren(
    h("h1", {}, gettext("Friends")),
    part("div", { class: "error-slot" }, (s) => [s.error], errorView),
    part("div", {}, (s) => [s.me], guestView),
    h(
      "div",
      { class: "columns" },
      h(
        "div",
        {},
        part("div", {}, (s) => [s.requests], requestsView),
        part(
          "section",
          { class: "panel", "aria-labelledby": "friends-h" },
          (s) => [s.friends, s.loaded],
          friendsView,
        ),
      ),
      h(
        "div",
        {},
        h(
          "section",
          { class: "panel", "aria-labelledby": "search-h" },
          h("h2", { id: "search-h" }, gettext("Find a player")),
          searchForm(actions),
          part("div", {}, (s) => [s.results, s.friends, s.requests, s.blocks], resultsView),
        ),
        part(
          "section",
          { class: "panel", "aria-labelledby": "blocks-h" },
          (s) => [s.blocks],
          blocksView,
        ),
      ),
    ),
    h(
      "p",
      { class: "muted" },
      fill(
        gettext("Who may challenge you, appearing offline and what chat you see: %(settings)s."),
        {
          settings: h("a", { href: "/#settings" }, gettext("your settings")),
        },
      ),
    ),
  );

  // Live: a friend's presence, a request to you, your request accepted; after a reconnect the
  // lists are read again (what changed meanwhile).
  const unsubscribe = meFeed.subscribe((message) => {
    if (message.type === "presence") dispatch({ type: "presence", message });
    else if (message.type === "friend") dispatch({ type: "friend", friend: message.friend });
    else if (message.type === "friend_request") {
      dispatch({ type: "friend_request", request: message.request });
    }
  });
  let first = true;
  const unwatch = meFeed.onStatus((status) => {
    if (status !== "open") return;
    if (!first) reread().catch(() => {});
    first = false;
  });
  await reread();
  return () => {
    unsubscribe();
    unwatch();
  };
}
