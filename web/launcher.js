// The widget on the store's pages (widget.js loads it): a launcher button in the corner
// and a panel with the chat, both in an open shadow root with styles of their own, so the
// store's CSS cannot reach them and theirs change nothing outside. Under 600 px the panel
// fills the screen and closes back to the launcher.
//
// The panel is open again after a reload or on the store's next page if it was open
// (sessionStorage: this tab only), and the conversation follows the shopper
// (session.js). A page on an origin the store has not allowed gets the chat, which says
// why it cannot answer there, and sends nothing.

import { startChat } from "./chat.js";
import { loadConfig, loadNames, originAllowed, page } from "./config.js";
import { el } from "./dom.js";
import { chatView } from "./view.js";

const HOST_TAG = "storechat-widget";
const OPEN_KEY = "storechat.open";
const SVG = "http://www.w3.org/2000/svg";

function stylesheet(href) {
  const link = el("link", { rel: "stylesheet", href });
  const loaded = new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
  });
  return { link, loaded };
}

/** A speech bubble, drawn: no image to fetch, no font to load. */
function bubbleIcon() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("class", "launcher__icon");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", "M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z");
  svg.append(path);
  return svg;
}

function remembered() {
  try {
    return sessionStorage.getItem(OPEN_KEY) === "1";
  } catch {
    return false;
  }
}

function remember(open) {
  try {
    if (open) sessionStorage.setItem(OPEN_KEY, "1");
    else sessionStorage.removeItem(OPEN_KEY);
  } catch {
    // Storage disabled: the panel just starts closed on the next page.
  }
}

export async function mount(base) {
  if (document.querySelector(HOST_TAG)) return;
  const host = document.createElement(HOST_TAG);
  const shadow = host.attachShadow({ mode: "open" });
  const sheets = ["chat.css", "widget.css"].map((name) => stylesheet(new URL(name, base).href));
  // Hidden until its own styles have loaded: never a flash of an unstyled panel.
  const frame = el("div", { class: "widget", hidden: true });
  shadow.append(...sheets.map((sheet) => sheet.link), frame);
  (document.body || document.documentElement).append(host);
  await Promise.all([loadConfig(), loadNames(), ...sheets.map((sheet) => sheet.loaded)]);

  const storeName = page.store.name || "the store";
  const launcher = el("button", {
    type: "button",
    class: "launcher",
    "aria-label": `Open the chat with ${storeName}'s shopping assistant`,
    "aria-expanded": "false",
    "aria-controls": "storechat-panel",
  }, bubbleIcon(), el("span", { class: "launcher__text", text: "Chat" }));
  const close = el("button", {
    type: "button", class: "button button--quiet panel__close", "aria-label": "Close the chat", text: "✕",
  });
  const panel = el("div", {
    class: "panel", id: "storechat-panel", role: "dialog", "aria-label": `Chat with ${storeName}`, hidden: true,
  });
  frame.append(panel, launcher);
  const view = chatView(panel, { actions: [close], headingLevel: "h2" });
  if (page.store.colors) {
    frame.style.setProperty("--accent", page.store.colors.accent);
    frame.style.setProperty("--on-accent", page.store.colors.onAccent);
  }
  const chat = startChat(view);
  if (!originAllowed(location.origin)) {
    chat.refuse("This chat isn't available on this site",
      `${storeName}'s assistant answers only on the store's own pages, and ${location.origin} `
      + "is not one of them. Store team: add it to allowedOrigins in the store's settings.");
  }

  function setOpen(open, { focus = true } = {}) {
    panel.hidden = !open;
    frame.classList.toggle("widget--open", open);
    launcher.setAttribute("aria-expanded", String(open));
    launcher.setAttribute("aria-label", open
      ? "Close the chat" : `Open the chat with ${storeName}'s shopping assistant`);
    remember(open);
    if (!focus) return;
    if (open) chat.focus();
    else launcher.focus();
  }

  launcher.addEventListener("click", () => setOpen(panel.hidden));
  close.addEventListener("click", () => setOpen(false));
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      setOpen(false);
    }
  });
  frame.hidden = false;
  if (remembered()) setOpen(true, { focus: false });
}
