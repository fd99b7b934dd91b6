// `/how-to-play`: the player's guide (docs/rules.md told short), written once per language as
// a server template (web/templates/web/how_to_play/). A page opened at this path carries it in
// `<template id="how-to-play">`; reached from another page, it is read from the server's page
// for this path (the same template, in the page's language).

import { h } from "../dom.js";
import { gettext } from "../i18n.js";

async function guide() {
  const here = document.getElementById("how-to-play");
  if (here) return here.content.cloneNode(true);
  const response = await fetch("/how-to-play", { headers: { Accept: "text/html" } });
  if (!response.ok) throw new Error(gettext("The server cannot be reached."));
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const found = page.getElementById("how-to-play");
  if (!found) throw new Error(gettext("The server cannot be reached."));
  document.body.append(document.importNode(found, true)); // kept for the next visit
  return document.importNode(found.content, true);
}

export async function howToPlayPage(root, _params, app) {
  app.title(gettext("How to play"));
  root.replaceChildren(h("article", { class: "guide", testid: "how-to-play" }, await guide()));
  return null;
}
