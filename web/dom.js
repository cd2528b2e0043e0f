// Building the chat's elements, and what every part of it does to its page alike.
//
// Safety rule for the chat: text from the model or the server is only ever placed with
// textContent / createTextNode (as `el` does), never parsed as HTML.

/** Create an element. `props`: class, text, dataset, and attributes; children: nodes or strings. */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = String(value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "hidden") node.hidden = Boolean(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

/** A function that says `text` through the polite live region `region`. */
export function announcer(region) {
  return (text) => {
    // Clearing first makes a repeated message be announced again.
    region.textContent = "";
    window.setTimeout(() => { region.textContent = text; }, 50);
  };
}

/** `table[key]` when `key` is one of its own names (never an inherited one like "constructor"). */
export const lookup = (table, key) =>
  (typeof key === "string" && Object.hasOwn(table, key) ? table[key] : undefined);

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export function scrollToTurn(node) {
  node.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
}

/**
 * A web address the chat may link to: https, or http on this machine (a store tried out
 * locally). Anything else (javascript:, data:, another scheme) is no link at all.
 */
export function safeLink(value) {
  if (typeof value !== "string" || !value) return null;
  let url;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (url.protocol === "https:" || (url.protocol === "http:" && loopback)) return url.href;
  return null;
}
