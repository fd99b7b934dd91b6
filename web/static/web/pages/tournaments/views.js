// The tournament pages' views: the lists, the form that creates a tournament, and one
// tournament with its countdown, its buttons, the player's entry and the live standings.
// Functions of the state (store.js) and of what the pages read.

import { errorLine, h, scrolling } from "../../dom.js";
import { playerName } from "../../views/player-name.js";
import { countdownTarget, mine, rows } from "./store.js";

export const SIZES = [2, 3, 4, 5];
export const SECTIONS = [
  ["running", "Running"],
  ["upcoming", "Upcoming"],
  ["finished", "Finished"],
];
const LINK = { open: "live", closed: "not updating" };
// The countdown line once there is nothing to count down to.
const OVER = {
  running: "Time is up: the games in play finish, then the standings are final.",
  finished: "It is over: these are the final standings.",
  cancelled: "It was cancelled.",
};
// The list's columns; those marked are left out on a phone (the section names the status),
// where each tournament is a card: its name, then its facts on a line (app.css).
const COLUMNS = [
  ["Name", false],
  ["Status", true],
  ["Starts", false],
  ["Length", false],
  ["Tables", false],
  ["Rated", true],
  ["Players", false],
];
// The standings' columns; a phone leaves out the outright firsts (the rank counts them).
const STANDING_COLUMNS = [
  ["Rank", false],
  ["Player", false],
  ["Score", false],
  ["Games", false],
  ["Firsts", true],
];

const STARTS = new Intl.DateTimeFormat([], {
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
});
const STARTS_YEAR = new Intl.DateTimeFormat([], { dateStyle: "medium", timeStyle: "short" });

/** The start in the browser's time zone ("Dec 2, 2:31 AM"; with the year when not this one). */
export function startsAt(tournament) {
  const start = new Date(tournament.starts_at);
  const format = start.getFullYear() === new Date().getFullYear() ? STARTS : STARTS_YEAR;
  return format.format(start);
}

/** "30 min", "2 h", "1 h 30 min". */
export function duration({ starts_at, ends_at }) {
  const minutes = Math.round((Date.parse(ends_at) - Date.parse(starts_at)) / 60000);
  const [hours, rest] = [Math.floor(minutes / 60), minutes % 60];
  if (!hours) return `${minutes} min`;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

/** "1:05:09" or "4:09" until `at`, "0:00" once it has passed. */
export function remaining(at) {
  const seconds = Math.max(0, Math.ceil((Date.parse(at) - Date.now()) / 1000));
  const [hours, minutes] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60];
  const mmss = `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
  return hours ? `${hours}:${mmss.padStart(5, "0")}` : mmss;
}

const sizesText = (sizes) => sizes.map((n) => `${n}p`).join(", ");
const plural = (n, word) => (n === 1 ? word : `${word}s`);

// The list ---------------------------------------------------------------------------------

export function listSection(status, title, tournaments) {
  const heading = `tournaments-${status}-h`;
  return h(
    "section",
    { class: "panel", "aria-labelledby": heading, testid: `tournaments-${status}` },
    h("h2", { id: heading }, title),
    tournaments.length
      ? scrolling(
          h(
            "table",
            { class: "grid tournament-list" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                COLUMNS.map(([title, wide]) =>
                  h("th", { scope: "col", class: wide ? "wide-only" : null }, title),
                ),
              ),
            ),
            h("tbody", {}, tournaments.map(listRow)),
          ),
        )
      : h("p", { class: "muted" }, `No ${title.toLowerCase()} tournament.`),
  );
}

function listRow(tournament) {
  return h(
    "tr",
    { testid: "tournament-row", "data-tournament": tournament.id },
    h(
      "th",
      { scope: "row" },
      h("a", { href: `/tournaments/${tournament.id}` }, tournament.name),
      tournament.private ? h("span", { class: "badge" }, "private") : null,
    ),
    h("td", { class: "wide-only" }, tournament.status),
    h("td", {}, startsAt(tournament)),
    h("td", {}, duration(tournament)),
    // A phone has no column headings: the words they give are in these cells.
    h(
      "td",
      {},
      h("span", { class: "narrow-only" }, "tables of "),
      sizesText(tournament.table_sizes),
    ),
    h("td", { class: "wide-only" }, tournament.rated ? "rated" : "unrated"),
    h(
      "td",
      {},
      String(tournament.players_count),
      h("span", { class: "narrow-only" }, ` ${plural(tournament.players_count, "player")}`),
    ),
  );
}

/** `2026-12-02T10:42` in local time, for a datetime-local field. */
function localInput(date) {
  const pad = (n) => String(n).padStart(2, "0");
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** The form that creates a tournament; a guest is told why there is none. */
export function createView(me, create, error) {
  const heading = h("h2", { id: "create-h" }, "Create a tournament");
  if (me.is_guest) {
    return h(
      "section",
      { class: "panel", "aria-labelledby": "create-h" },
      heading,
      h(
        "p",
        { class: "muted", testid: "create-guest" },
        "Only registered players create tournaments (anyone may join one). ",
        h("a", { href: "/" }, "Register on the start page"),
        " and keep your rating and games.",
      ),
    );
  }
  const start = new Date(Date.now() + 2 * 60_000);
  const field = (label, id, attrs) =>
    h(
      "p",
      { class: "field" },
      h("label", { for: id }, label),
      h("input", { id, name: id, "data-key": id, ...attrs }),
    );
  return h(
    "form",
    {
      class: "panel",
      "aria-labelledby": "create-h",
      testid: "create-tournament",
      onsubmit: (event) => {
        event.preventDefault();
        const data = new FormData(event.target);
        create({
          name: data.get("name").trim(),
          starts_at: new Date(data.get("starts_at")).toISOString(),
          minutes: Number(data.get("minutes")),
          table_sizes: data.getAll("table_sizes").map(Number),
          rated: data.get("rated") === "on",
          password: data.get("password"),
        });
      },
    },
    heading,
    errorLine(error),
    field("Name", "name", { required: true, maxlength: 64, testid: "tournament-name" }),
    field("Starts (your time)", "starts_at", {
      type: "datetime-local",
      required: true,
      value: localInput(start),
      testid: "tournament-start",
    }),
    field("Minutes", "minutes", {
      type: "number",
      min: 5,
      max: 720,
      value: 30,
      required: true,
      testid: "tournament-minutes",
    }),
    h(
      "fieldset",
      { class: "sizes" },
      h("legend", {}, "Table sizes"),
      SIZES.map((n) =>
        h(
          "label",
          { class: "check" },
          h("input", {
            type: "checkbox",
            name: "table_sizes",
            value: n,
            checked: n <= 4,
            testid: `tournament-size-${n}`,
          }),
          ` ${n} players`,
        ),
      ),
    ),
    h(
      "p",
      {},
      h(
        "label",
        { class: "check" },
        h("input", { type: "checkbox", name: "rated", checked: true, testid: "tournament-rated" }),
        " Rated (the games move ratings)",
      ),
    ),
    field("Password (optional: a private tournament)", "password", {
      type: "password",
      autocomplete: "new-password",
      maxlength: 128,
      testid: "tournament-password",
    }),
    h(
      "p",
      { class: "row" },
      h("button", { type: "submit", class: "primary", testid: "create-submit" }, "Create"),
    ),
  );
}

// One tournament ---------------------------------------------------------------------------

export function headView(state) {
  const { tournament } = state;
  const target = countdownTarget(tournament);
  return h(
    "header",
    { class: "tournament-head" },
    h("h1", { testid: "tournament-name" }, tournament.name),
    h(
      "p",
      { class: "muted" },
      h(
        "span",
        { class: "badge", testid: "tournament-status", "data-status": tournament.status },
        tournament.status,
      ),
      ` Starts ${startsAt(tournament)} · ${duration(tournament)} · tables of ` +
        `${sizesText(tournament.table_sizes)} · ${tournament.rated ? "rated" : "unrated"} · `,
      h(
        "span",
        { testid: "players-count" },
        `${tournament.players_count} ${plural(tournament.players_count, "player")}`,
      ),
      tournament.private ? " · private" : "",
      " · ",
      h("span", { class: `link ${state.link}` }, LINK[state.link] ?? "connecting…"),
    ),
    target
      ? h(
          "p",
          { class: "status", testid: "countdown-line" },
          `${target.label} `,
          h(
            "strong",
            { class: "tournament-countdown", testid: "countdown", "data-until": target.at },
            remaining(target.at),
          ),
        )
      : h("p", { class: "status", testid: "countdown-line" }, OVER[tournament.status] ?? ""),
  );
}

/** Join (with the password of a private tournament), pause, come back; the player's entry. */
export function entryView(state, actions) {
  const { tournament } = state;
  const entry = mine(state);
  const open = tournament.status === "upcoming" || tournament.status === "running";
  const you = entry
    ? h(
        "p",
        { testid: "my-entry" },
        "You: ",
        h("strong", { testid: "my-score" }, String(entry.score)),
        ` ${plural(entry.score, "point")}`,
        entry.rank ? [", rank ", h("strong", { testid: "my-rank" }, `#${entry.rank}`)] : null,
        entry.paused ? h("span", { class: "badge", testid: "my-paused" }, "paused") : null,
      )
    : null;
  let controls = null;
  if (open && !entry) {
    controls = h(
      "form",
      {
        class: "row",
        onsubmit: (event) => {
          event.preventDefault();
          actions.join(new FormData(event.target).get("password") ?? "");
        },
      },
      tournament.private
        ? [
            h("label", { for: "join-password" }, "Password"),
            h("input", {
              id: "join-password",
              name: "password",
              type: "password",
              required: true,
              // What was typed survives a redraw (the standings redraw this part).
              value: actions.typed.password,
              oninput: (event) => {
                actions.typed.password = event.target.value;
              },
              "data-key": "join-password",
              testid: "join-password",
            }),
          ]
        : null,
      h(
        "button",
        {
          type: "submit",
          class: "primary",
          testid: "join-tournament",
          "data-key": "join",
          disabled: state.sending,
        },
        "Join",
      ),
    );
  } else if (open && entry.paused) {
    controls = h(
      "p",
      { class: "row" },
      h("span", { class: "muted" }, "Paused: you are not seated until you come back."),
      h(
        "button",
        {
          type: "button",
          class: "primary",
          testid: "join-tournament",
          "data-key": "join",
          disabled: state.sending,
          onclick: () => actions.join(""),
        },
        "Come back",
      ),
    );
  } else if (open) {
    controls = h(
      "p",
      { class: "row" },
      h(
        "span",
        { class: "muted" },
        tournament.status === "running"
          ? "A table opens by itself when you are seated."
          : "Keep this page open: when it starts, a table opens by itself.",
      ),
      h(
        "button",
        {
          type: "button",
          testid: "pause-tournament",
          "data-key": "pause",
          disabled: state.sending,
          onclick: () => actions.pause(),
        },
        "Pause",
      ),
    );
  }
  return h(
    "section",
    { class: "panel tournament-entry", "aria-label": "Your entry" },
    errorLine(state.error),
    you,
    controls,
  );
}

export function standingsView(state) {
  const board = rows(state);
  const me = state.me?.id;
  if (!board.length) {
    return h("p", { class: "muted", testid: "tournament-standings" }, "Nobody has joined yet.");
  }
  return scrolling(
    h(
      "table",
      { class: "grid fits tournament-standings", testid: "tournament-standings" },
      h("caption", { class: "sr-only" }, "Standings"),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          STANDING_COLUMNS.map(([title, wide]) =>
            h("th", { scope: "col", class: wide ? "wide-only" : null }, title),
          ),
        ),
      ),
      h(
        "tbody",
        {},
        board.map((row) =>
          h(
            "tr",
            {
              "data-player": row.player.id,
              class: row.player.id === me ? "mine" : null,
              testid: "standing",
            },
            h("td", { testid: "standing-rank" }, String(row.rank)),
            h(
              "th",
              { scope: "row" },
              playerName(row.player, { link: true }),
              // A word, not an emoji: it reads the same without an emoji font.
              row.on_fire
                ? h(
                    "span",
                    { class: "badge fire", title: "On fire: points doubled", testid: "on-fire" },
                    "on fire",
                  )
                : null,
              row.paused
                ? h("span", { class: "badge", testid: "standing-paused" }, "paused")
                : null,
              row.player.id === me ? h("span", { class: "badge you" }, "you") : null,
            ),
            h("td", { testid: "standing-score" }, String(row.score)),
            h("td", { testid: "standing-games" }, String(row.games)),
            h("td", { class: "wide-only", testid: "standing-firsts" }, String(row.firsts)),
          ),
        ),
      ),
    ),
  );
}
