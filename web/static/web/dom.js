// A few DOM helpers: the client builds its pages with `h`, never with innerHTML, so no text
// from the server is ever parsed as markup.

import { formatDate } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

function build(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "testid") {
      el.setAttribute("data-testid", value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** `h("button", {class: "x", onclick: f, testid: "new-table"}, "text", child...)`. */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** The same for SVG elements. */
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG, tag), attrs, children);
}

// The element a pointer is pressed on, until it is released; and the content held meanwhile
// for each root that holds it (the newest).
let pressed = null;
const held = new Map();
addEventListener(
  "pointerdown",
  (event) => {
    pressed = event.target;
  },
  true,
);
function released(event) {
  if (event.type === "blur" && event.target !== window) return; // an element's, not the window's
  pressed = null;
  // After the click, which the browser sends in the same task as the release.
  if (held.size) setTimeout(drawHeld);
}
for (const type of ["pointerup", "pointercancel", "blur"]) addEventListener(type, released, true);
function drawHeld() {
  const due = [...held];
  held.clear();
  for (const [root, children] of due) replace(root, ...children);
}

/** Replace `root`'s content, keeping keyboard focus on the element of the same `data-key`
 *  (pages are drawn anew on each change; a player using the keyboard keeps their place).
 *  While a pointer pressed inside `root` is down, the new content waits until it is released
 *  and its click has gone out: a button replaced between its press and its release would lose
 *  the click (the browser sends it to what the two have in common), so a push arriving
 *  mid-click would swallow a player's move. */
export function replace(root, ...children) {
  if (pressed && root.contains(pressed)) {
    held.set(root, children);
    return;
  }
  held.delete(root); // what was held is older than this
  const key = document.activeElement?.closest?.("[data-key]")?.getAttribute("data-key");
  root.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== false));
  if (key) {
    const again = [...root.querySelectorAll("[data-key]")].find(
      (el) => el.getAttribute("data-key") === key,
    );
    if (again && !again.disabled) again.focus({ preventScroll: true });
  }
}

export function when(iso) {
  return formatDate(iso);
}

/** A wide table that scrolls sideways inside its box on a narrow screen, not the page. */
export const scrolling = (table) => h("div", { class: "scroll" }, table);

/** The page's one error line (`data-testid="error"`), or nothing. */
export function errorLine(message) {
  return message ? h("p", { class: "error", role: "alert", testid: "error" }, message) : null;
}
