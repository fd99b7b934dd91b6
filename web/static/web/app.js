// The reference web client: a router over the pages of docs/api.md's "The web client", on the
// public API only. Each page is `async (root, params, app) => cleanup?`.

import { h } from "./dom.js";
import { clientSeed } from "./fair-deal.js";
import { chooseLanguage, gettext } from "./i18n.js";
import { friendsPage } from "./pages/friends/page.js";
import { gamePage } from "./pages/game/page.js";
import { homePage } from "./pages/home/page.js";
import { howToPlayPage } from "./pages/how-to-play.js";
import { joinPage } from "./pages/join.js";
import { leaderboardPage } from "./pages/leaderboard.js";
import { playerPage } from "./pages/player.js";
import { replayPage } from "./pages/replay.js";
import { seasonsPage } from "./pages/seasons/page.js";
import { tournamentPage, tournamentsPage } from "./pages/tournaments/page.js";
import { watchPage } from "./pages/watch.js";
import { startChallenges } from "./social/challenges.js";
import { followSeats } from "./tournament-seats.js";
import { meFeed } from "./transport/me-feed.js";
import { session } from "./transport/session.js";

const ID = "([0-9a-fA-F-]{36})";
const ROUTES = [
  [/^\/$/, homePage],
  [new RegExp(`^/games/${ID}/?$`), gamePage],
  [new RegExp(`^/join/${ID}/([^/]+)/?$`), joinPage],
  [new RegExp(`^/players/${ID}/?$`), playerPage],
  [/^\/leaderboard\/?$/, leaderboardPage],
  [/^\/seasons\/?$/, seasonsPage],
  [/^\/seasons\/(\d+)\/?$/, seasonsPage],
  [/^\/tournaments\/?$/, tournamentsPage],
  [new RegExp(`^/tournaments/${ID}/?$`), tournamentPage],
  [/^\/watch\/?$/, watchPage],
  [/^\/friends\/?$/, friendsPage],
  [new RegExp(`^/replay/${ID}/?$`), replayPage],
  [/^\/how-to-play\/?$/, howToPlayPage],
];

const main = document.getElementById("main");
let cleanup = null;
let started = false;

const app = {
  navigate(path, { replace = false } = {}) {
    if (replace) history.replaceState(null, "", path);
    else history.pushState(null, "", path);
    show();
  },
  title(text) {
    const yaniv = gettext("Yaniv");
    document.title = text ? `${text} · ${yaniv}` : yaniv;
  },
};

async function show() {
  if (cleanup) cleanup();
  cleanup = null;
  const path = location.pathname;
  const root = h("div", { class: "page" });
  main.replaceChildren(root);
  markCurrentLink(); // again once the page is drawn: the profile link is the session's
  for (const [pattern, page] of ROUTES) {
    const match = pattern.exec(path);
    if (!match) continue;
    try {
      await session.ensure();
      startOnce();
      cleanup = (await page(root, match.slice(1).map(decodeURIComponent), app)) || null;
    } catch (error) {
      root.replaceChildren(
        h("h1", {}, gettext("Something went wrong")),
        h("p", { class: "error", role: "alert", testid: "error" }, error.message),
      );
    }
    markCurrentLink();
    if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
    return;
  }
  app.title(gettext("Not found"));
  root.append(
    h("h1", {}, gettext("Not found")),
    h("p", {}, h("a", { href: "/" }, gettext("Back to the start"))),
  );
}

/** What lives on every page, once there is a player: their socket (presence: their friends see
 *  them online), the corner of challenges and the tournament seats that open their tables. */
function startOnce() {
  if (started) return;
  started = true;
  meFeed.start();
  clientSeed.settle(); // a seed the server refused after the last game (still seated then)
  startChallenges(document.getElementById("challenges"), app);
  followSeats(app);
}

function markCurrentLink() {
  const path = location.pathname.replace(/\/$/, "") || "/";
  for (const link of document.querySelectorAll("header nav a")) {
    const href = link.getAttribute("href");
    // `/seasons` is current on `/seasons/2` too.
    if (path === href || path.startsWith(`${href}/`)) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

// Same-origin links to the client's pages change the page without a reload.
document.addEventListener("click", (event) => {
  const link = event.target.closest?.("a[href]");
  if (!link || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || link.target) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin) return;
  if (!ROUTES.some(([pattern]) => pattern.test(url.pathname))) return;
  event.preventDefault();
  app.navigate(url.pathname + url.search + url.hash);
});
window.addEventListener("popstate", show);

// The language picker (the header's): the cookie, then the page again in that language.
document.getElementById("language-picker")?.addEventListener("change", (event) => {
  chooseLanguage(event.target.value);
});

session.onChange((me) => {
  document.getElementById("you-name").textContent = me.display_name;
  document.getElementById("profile-link").setAttribute("href", `/players/${me.id}`);
});

show();
