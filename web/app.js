// storechat chat page: no build step, no dependencies.
//
// Safety rule for this file: text from the model or the server is only ever
// placed with textContent / createTextNode, never parsed as HTML.

import { followSteps, newTurnId, showSteps } from "./steps.js";

const SESSION_KEY = "storechat.sessionId";
const TURNS_KEY = "storechat.turns";
const MAX_KEPT_TURNS = 20;
// The contract's longest message: the counter warns near it and Send is off past it. A
// deployment may allow less; its 400 message is then shown as is.
const MAX_MESSAGE_CHARS = 2000;
// API Gateway gives up after 29 s; wait a little longer so its 504 is what we show.
const REQUEST_TIMEOUT_MS = 35_000;
// The same citation pattern as compose_response.text.CITATION.
const CITATION = /\[([A-Za-z][A-Za-z0-9_-]{0,62}[0-9][A-Za-z0-9_-]{0,62})\](?!\()/g;
// The trace line listing corrected facts: compose_response.facts.TRACE_STEP. It is not a tool call.
const CHECK_FACTS_STEP = "check_facts";

// Error codes, outcomes and fallback reasons, with their words, come from the API's
// one declaration of them (shared/vocabulary.py), published beside the page.
const NAMES_URL = "./names.json";
const NOTICE_TONES = { fallback: "warn", refused: "muted" };
const UNKNOWN_ERROR = { title: "Something went wrong", message: "Please try again.", retry: true };
const CATEGORY_LABELS = { COMPUTERS: "Computer", MOBILE: "Phone", BOOKS: "Book" };

// Prices are in the store's currency (config.json's "currency"; US dollars until it is read).
let money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const count = new Intl.NumberFormat("en-US");
const terabytes = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
// What catalogs write for a spec they do not know; shown, it would read as a fact.
const UNKNOWN_SPECS = new Set(["", "unknown", "n/a", "na", "none", "-", "?", "null", "undefined"]);

const $ = (id) => document.getElementById(id);
const els = {
  form: $("composer"),
  input: $("message"),
  send: $("send"),
  sendLabel: document.querySelector("#send .send__label"),
  counter: $("composer-count"),
  conversation: $("conversation"),
  welcome: $("welcome"),
  announcer: $("announcer"),
  newConversation: $("new-conversation"),
  modelBadge: $("model-badge"),
};

const state = {
  apiUrl: "",
  names: { errors: {}, outcomes: {}, fallbackReasons: {}, chips: {} },
  busy: false,
  turn: 0,
  controller: null,
  configured: Promise.resolve(),
};

// ---------------------------------------------------------------------------------------
// DOM helpers

/** Create an element. `props`: class, text, dataset, and attributes; children: nodes or strings. */
function el(tag, props = {}, ...children) {
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

function announce(text) {
  // Clearing first makes a repeated message be announced again.
  els.announcer.textContent = "";
  window.setTimeout(() => { els.announcer.textContent = text; }, 50);
}

/** `table[key]` when `key` is one of its own names (never an inherited one like "constructor"). */
const lookup = (table, key) =>
  (typeof key === "string" && Object.hasOwn(table, key) ? table[key] : undefined);

const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function scrollToTurn(node) {
  node.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
}

// ---------------------------------------------------------------------------------------
// Session and kept turns

const session = {
  get id() { return sessionStorage.getItem(SESSION_KEY); },
  set id(value) {
    if (value) sessionStorage.setItem(SESSION_KEY, value);
    else sessionStorage.removeItem(SESSION_KEY);
  },
  turns() {
    try {
      const kept = JSON.parse(sessionStorage.getItem(TURNS_KEY) || "[]");
      return Array.isArray(kept) ? kept : [];
    } catch {
      return [];
    }
  },
  keep(message, body) {
    const turns = [...this.turns(), { message, body }].slice(-MAX_KEPT_TURNS);
    try {
      sessionStorage.setItem(TURNS_KEY, JSON.stringify(turns));
    } catch {
      // Storage full or disabled: the conversation still works, it just won't survive a reload.
    }
  },
  clear() {
    sessionStorage.removeItem(SESSION_KEY);
    sessionStorage.removeItem(TURNS_KEY);
  },
};

// ---------------------------------------------------------------------------------------
// Rendering an answer

/** Where `text` has `codePoints` code points behind it, in JavaScript's UTF-16 units. */
function utf16Offset(text, codePoints) {
  let units = 0;
  let seen = 0;
  for (const char of text) {
    if (seen === codePoints) break;
    units += char.length;
    seen += 1;
  }
  return units;
}

/**
 * The corrected facts still in `answer`: where each is (the server counts code points)
 * and what the catalog says. One that is not where it says is left unmarked.
 */
function correctionMarks(body, answer) {
  const corrections = Array.isArray(body.corrections) ? body.corrections : [];
  const marks = [];
  for (const c of corrections) {
    if (!c || c.dropped || !Number.isInteger(c.start) || typeof c.text !== "string" || !c.text) continue;
    const start = utf16Offset(answer, c.start);
    if (!answer.startsWith(c.text, start)) continue;
    marks.push({ start, end: start + c.text.length, record: String(c.record ?? ""), said: String(c.said ?? "") });
  }
  return marks.sort((a, b) => a.start - b.start);
}

/** `text`, which starts at `at` in the answer, with each corrected fact inside it marked. */
function marked(text, marks, at) {
  const out = [];
  let last = 0;
  for (const mark of marks) {
    const start = mark.start - at;
    const end = mark.end - at;
    if (start < last || end > text.length) continue;
    out.push(text.slice(last, start));
    out.push(
      el("mark", { class: "corrected", title: `catalog: ${mark.record}` }, text.slice(start, end)),
      el("span", { class: "visually-hidden",
        text: ` (corrected from the catalog; the assistant had said ${mark.said})` }));
    last = end;
  }
  out.push(text.slice(last));
  return out;
}

/**
 * Inline text: **bold**, [productId] citations that link to the product's card, and
 * corrected facts marked. `at` is where `text` starts in the answer, for the marks.
 */
function inline(text, cards, marks = [], at = 0) {
  const out = [];
  const parts = text.split(/(\*\*[^*\n]+\*\*)/g);
  let partAt = at;
  for (const part of parts) {
    const start = partAt;
    partAt += part.length;
    if (/^\*\*[^*\n]+\*\*$/.test(part)) {
      out.push(el("strong", {}, ...inline(part.slice(2, -2), cards, marks, start + 2)));
      continue;
    }
    let last = 0;
    for (const match of part.matchAll(CITATION)) {
      out.push(...marked(part.slice(last, match.index), marks, start + last));
      const card = cards.get(match[1]);
      if (card) {
        out.push(el("a", {
          class: "cite",
          href: `#${card.id}`,
          "aria-label": `${card.name} (${match[1]}): see the product card`,
          dataset: { target: card.id },
          text: match[1],
        }));
      } else {
        out.push(match[0]);
      }
      last = match.index + match[0].length;
    }
    out.push(...marked(part.slice(last), marks, start + last));
  }
  return out.filter((piece) => piece !== "");
}

/** Lines become paragraphs, "1." lines an ordered list, "-" lines a bulleted list. */
function answerBlock(text, cards, marks = []) {
  const block = el("div", { class: "answer__text" });
  let list = null;
  let listKind = "";
  let lineAt = 0;
  for (const raw of text.split("\n")) {
    const at = lineAt + raw.length - raw.trimStart().length;
    lineAt += raw.length + 1;
    const line = raw.trim();
    const numbered = line.match(/^\d+[.)]\s+(.*)$/);
    const bulleted = line.match(/^[-*•]\s+(.*)$/);
    const kind = numbered ? "ol" : bulleted ? "ul" : "";
    if (!kind) {
      list = null;
      if (line) block.append(el("p", {}, ...inline(line, cards, marks, at)));
      continue;
    }
    if (!list || listKind !== kind) {
      list = el(kind);
      listKind = kind;
      block.append(list);
    }
    const content = (numbered || bulleted)[1];
    list.append(el("li", {}, ...inline(content, cards, marks, at + line.length - content.length)));
  }
  return block;
}

/** Storage as people write it: 512 GB, 1 TB, 1.5 TB. Catalogs give a terabyte as 1,000
 * GB or as 1,024 (a drive of 1,024 GB is sold as 1 TB): a multiple of 256 GB is binary. */
function storageText(gb) {
  if (gb < 1000) return `${count.format(gb)} GB`;
  return `${terabytes.format(gb % 256 === 0 ? gb / 1024 : gb / 1000)} TB`;
}

/** Whether a spec says something: a number above 0 (a desktop's 0″ screen or 0 h
 * battery means it has none), or words other than the ones that mean "not known". */
function known(value) {
  if (typeof value === "number") return Number.isFinite(value) && value > 0;
  if (typeof value === "string") {
    const text = value.trim();
    if (text && Number.isFinite(Number(text))) return Number(text) > 0;
    return !UNKNOWN_SPECS.has(text.toLowerCase());
  }
  return value === true;
}

/** A chip's value as its format says: "number" as written, "count" with thousands
 * separators, "storage" in GB or TB, "text" as text. */
const CHIP_FORMATS = {
  number: (v) => `${v}`,
  count: (v) => count.format(v),
  storage: (v) => storageText(v),
  text: (v) => String(v),
};

/** The few specs a shopper compares first, by category, leaving out what is not known:
 * the chips of the product's category, in order, as names.json publishes them (from the
 * catalog's vocabulary, shared/catalog/specs.py). */
function keySpecs(product) {
  const s = product.specs || {};
  const chips = lookup(state.names.chips, product.category);
  const specs = [];
  for (const chip of Array.isArray(chips) ? chips : []) {
    if (!chip || typeof chip.spec !== "string" || typeof chip.label !== "string") continue;
    const value = lookup(s, chip.spec);
    if (chip.format === "flag") {
      if (value === true) specs.push(chip.label);
      continue;
    }
    const format = lookup(CHIP_FORMATS, chip.format);
    if (format && known(value)) specs.push(chip.label.replace("{}", format(value)));
  }
  return specs.slice(0, 7);
}

function stockText(stock) {
  if (typeof stock !== "number") return null;
  if (stock <= 0) return { text: "Out of stock", tone: "out" };
  if (stock <= 5) return { text: `Only ${stock} left`, tone: "low" };
  return { text: "In stock", tone: "in" };
}

/**
 * The product's picture in a box of fixed proportions: the card keeps its size while the
 * picture loads, or if it never does. Loaded lazily; the name is its alternative text.
 */
function productImage(product) {
  const url = typeof product.imageUrl === "string" ? product.imageUrl : "";
  if (!/^https?:\/\//i.test(url)) return null;
  const image = el("img", {
    class: "card__image",
    src: url,
    alt: product.name || product.productId,
    loading: "lazy",
    decoding: "async",
    width: "400",
    height: "300",
  });
  const box = el("div", { class: "card__media" }, image);
  // A picture that cannot load (gone, or from a host the page may not use) leaves the
  // empty box rather than a broken-image icon.
  image.addEventListener("error", () => { image.hidden = true; }, { once: true });
  return box;
}

function productCard(product, id) {
  const price = typeof product.price === "number" ? money.format(product.price) : "";
  const stock = stockText(product.stock);
  const formFactor = product.specs && product.specs.formFactor;
  const kind = [CATEGORY_LABELS[product.category] || product.category, formFactor]
    .filter(Boolean).join(" · ");
  return el("li", { class: "cards__item" },
    el("article", { class: "card", id, tabindex: "-1", "aria-labelledby": `${id}-name` },
      productImage(product),
      el("p", { class: "card__kind", text: kind }),
      el("h3", { class: "card__name", id: `${id}-name`, text: product.name || product.productId }),
      el("p", { class: "card__brand", text: product.brand || "" }),
      el("p", { class: "card__buy" },
        el("span", { class: "card__price", text: price }),
        stock && el("span", { class: `card__stock card__stock--${stock.tone}`, text: stock.text })),
      el("ul", { class: "card__specs", "aria-label": "Key specs" },
        keySpecs(product).map((spec) => el("li", { text: spec }))),
      el("p", { class: "card__id", text: product.productId })));
}

function traceBlock(body) {
  const lines = Array.isArray(body.trace) ? body.trace : [];
  const toolCalls = lines.filter((line) => line && line.tool !== CHECK_FACTS_STEP).length;
  const tools = toolCalls === 1 ? "1 tool call" : `${toolCalls} tool calls`;
  const calls = body.modelCalls === 1 ? "1 model call" : `${body.modelCalls ?? 0} model calls`;
  const usage = body.usage || {};
  const list = lines.length
    ? el("ol", { class: "trace__list" }, lines.map((line) => {
        const status = String(line.status || "unknown");
        const tone = line.tool === CHECK_FACTS_STEP ? "check" : status === "success" ? "ok" : "bad";
        return el("li", { class: `trace__item trace__item--${tone}` },
          el("p", { class: "trace__head" },
            el("span", { class: "trace__tool", text: line.tool || "?" }),
            el("span", { class: "trace__status", text: status }),
            el("span", { class: "trace__ms", text: `${count.format(line.ms ?? 0)} ms` }),
            line.round !== undefined && el("span", { class: "trace__round", text: `round ${line.round}` })),
          el("p", { class: "trace__label", text: "Input" }),
          el("code", { class: "trace__input", text: JSON.stringify(line.input ?? {}) }),
          line.summary && el("p", { class: "trace__summary", text: line.summary }));
      }))
    : el("p", { class: "trace__none", text: "I answered without calling any tools." });
  return el("details", { class: "trace" },
    el("summary", {},
      el("span", { class: "trace__title", text: "How I found this" }),
      el("span", { class: "trace__counts", text: ` · ${tools} · ${calls}` })),
    list,
    el("p", { class: "trace__usage",
      text: `${count.format(usage.inputTokens || 0)} input and ${count.format(usage.outputTokens || 0)} output tokens` }));
}

function notice(tone, title, detail) {
  return el("div", { class: `notice notice--${tone}` },
    el("p", { class: "notice__title", text: title }),
    detail && el("p", { class: "notice__detail", text: detail }));
}

function answerTurn(body, turnId, { sentSessionId } = {}) {
  const products = Array.isArray(body.products) ? body.products : [];
  const cards = new Map();
  for (const product of products) {
    if (product && typeof product.productId === "string" && !cards.has(product.productId)) {
      cards.set(product.productId, { id: `${turnId}-${product.productId}`, name: product.name, product });
    }
  }
  const outcome = body.outcome || "answered";
  const item = el("li", { class: `turn turn--assistant turn--${outcome}`, id: turnId, dataset: { outcome } });
  item.append(el("h2", { class: "visually-hidden", text: "storechat's answer" }));

  const title = (lookup(state.names.outcomes, outcome) || {}).notice;
  if (title) {
    const reason = outcome === "fallback"
      ? lookup(state.names.fallbackReasons, body.fallbackReason) || "something went wrong"
      : null;
    item.append(notice(NOTICE_TONES[outcome] || "info", title, reason && `Reason: ${reason}.`));
  }
  if (sentSessionId && body.sessionId && body.sessionId !== sentSessionId) {
    item.append(notice("info", "New conversation",
      "Your earlier conversation had expired, so this one starts fresh."));
  }
  const answer = String(body.answer || "");
  item.append(answerBlock(answer, cards, correctionMarks(body, answer)));
  if (cards.size) {
    item.append(el("ul", { class: "cards", "aria-label": "Products in this answer" },
      [...cards.values()].map((card) => productCard(card.product, card.id))));
  }
  const notes = [];
  if (Array.isArray(body.unverifiedCitations) && body.unverifiedCitations.length) {
    notes.push("I left out products I could not verify in the catalog.");
  }
  const corrections = Array.isArray(body.corrections) ? body.corrections : [];
  if (corrections.some((c) => c && !c.dropped)) {
    notes.push("Highlighted facts were corrected to the catalog's values.");
  }
  if (corrections.some((c) => c && c.dropped)) {
    notes.push("I left out a statement that did not match the catalog.");
  }
  if (body.historySaved === false) {
    notes.push("I couldn't save this turn, so a follow-up may not remember it.");
  }
  for (const text of notes) item.append(el("p", { class: "answer__note", text }));
  item.append(traceBlock(body));
  return item;
}

function userTurn(message) {
  return el("li", { class: "turn turn--user" },
    el("h2", { class: "visually-hidden", text: "You asked" }),
    el("p", { class: "bubble", text: message }));
}

function pendingTurn() {
  // The live trace's lines go in the list as they happen (steps.js); without any, the
  // spinner and its words are all there is.
  return el("li", { class: "turn turn--assistant turn--pending", "aria-busy": "true" },
    el("span", { class: "spinner", "aria-hidden": "true" }),
    el("p", { class: "pending__text", text: "Looking through the store…" }),
    el("ol", { class: "live-steps", role: "log", "aria-label": "What I'm doing", hidden: true }));
}

function errorTurn({ title, detail, hint, code, retry }) {
  const box = notice("error", title, detail);
  if (hint) box.append(el("p", { class: "notice__hint", text: hint }));
  const item = el("li", { class: "turn turn--error", dataset: { error: code || "" } },
    el("h2", { class: "visually-hidden", text: "Error" }),
    box);
  if (retry) {
    const button = el("button", { type: "button", class: "button button--quiet", text: "Try again" });
    button.addEventListener("click", () => {
      item.remove();
      retry();
    });
    item.append(button);
  }
  return item;
}

// ---------------------------------------------------------------------------------------
// Talking to the API

async function postQuery(message, sessionId, turnId, signal) {
  const payload = sessionId ? { message, sessionId, turnId } : { message, turnId };
  let response;
  try {
    response = await fetch(`${state.apiUrl}/query`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(payload),
      signal,
    });
  } catch (error) {
    return { kind: error && error.name === "AbortError" ? "aborted" : "network" };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.ok && data && typeof data.answer === "string") return { kind: "ok", body: data };
  return { kind: "http", status: response.status, data };
}

/** The contract's entry for an error: by its code, else the first one with its status. */
function knownError(code, status) {
  const errors = state.names.errors;
  return lookup(errors, code)
    || Object.values(errors).find((error) => error.status === status)
    || UNKNOWN_ERROR;
}

function describeFailure(result) {
  if (result.kind === "network") {
    return { title: "I couldn't reach the store assistant",
             detail: "Check your connection, then try again.", code: "network", retryable: true };
  }
  if (result.kind === "timeout") {
    // The page gave up waiting: the same words as the API's own timeout.
    const error = knownError("timeout", 504);
    return { title: error.title, detail: error.message, code: "timeout", retryable: true };
  }
  const data = result.data && typeof result.data === "object" ? result.data : {};
  const code = typeof data.error === "string" && data.error ? data.error : null;
  const serverText = typeof data.message === "string" && data.message ? data.message : null;
  const error = knownError(code, result.status);
  return {
    title: error.title,
    detail: serverText || (error === UNKNOWN_ERROR
      ? `The server answered with status ${result.status}. Please try again.`
      : error.message),
    hint: result.status === 400 ? "Change it in the box below and send it again." : null,
    code: code || `http_${result.status}`,
    retryable: Boolean(error.retry),
  };
}

function setBusy(busy) {
  state.busy = busy;
  els.form.setAttribute("aria-busy", String(busy));
  els.conversation.setAttribute("aria-busy", String(busy));
  els.send.disabled = busy || tooLong();
  els.sendLabel.textContent = busy ? "Sending…" : "Send";
}

function tooLong() {
  return els.input.value.length > MAX_MESSAGE_CHARS;
}

async function ask(message) {
  if (state.busy) return;
  const sentSessionId = session.id;
  els.welcome.hidden = true;
  const question = userTurn(message);
  const pending = pendingTurn();
  els.conversation.append(question, pending);
  scrollToTurn(question);
  setBusy(true);
  announce("Looking through the store…");

  const controller = new AbortController();
  state.controller = controller;
  let timedOut = false;
  const timer = window.setTimeout(() => { timedOut = true; controller.abort(); }, REQUEST_TIMEOUT_MS);
  await state.configured;
  const turnId = newTurnId();
  const steps = pending.querySelector(".live-steps");
  const stopSteps = followSteps(`${state.apiUrl}/query/${turnId}/steps`,
    (found) => showSteps(steps, found));
  controller.signal.addEventListener("abort", stopSteps);
  let result = await postQuery(message, sentSessionId, turnId, controller.signal);
  stopSteps();
  window.clearTimeout(timer);
  if (state.controller !== controller) return; // "New conversation" replaced this one
  state.controller = null;
  if (result.kind === "aborted" && timedOut) result = { kind: "timeout" };
  pending.remove();
  setBusy(false);

  if (result.kind === "ok") {
    const body = result.body;
    if (body.sessionId) session.id = body.sessionId;
    session.keep(message, body);
    const turn = answerTurn(body, `turn-${++state.turn}`, { sentSessionId });
    els.conversation.append(turn);
    scrollToTurn(turn);
    const heading = body.outcome === "fallback" ? "storechat could not finish. " : "storechat answered. ";
    announce(heading + String(body.answer || ""));
    return;
  }

  const failure = describeFailure(result);
  if (!failure.retryable) {
    question.classList.add("turn--unsent");
    question.append(el("p", { class: "turn__status", text: "Not sent" }));
    if (!els.input.value) {
      els.input.value = message;
      updateComposer();
    }
  }
  const turn = errorTurn({
    title: failure.title,
    detail: failure.detail,
    hint: failure.hint,
    code: failure.code,
    retry: failure.retryable ? () => { question.remove(); ask(message); } : null,
  });
  els.conversation.append(turn);
  scrollToTurn(turn);
  announce(`${failure.title}. ${failure.detail}`);
}

// ---------------------------------------------------------------------------------------
// The composer

function updateComposer() {
  const length = els.input.value.length;
  // Grow with the text (up to the CSS max-height); an empty box keeps its one-line size.
  els.input.style.height = "";
  if (length) els.input.style.height = `${Math.min(els.input.scrollHeight + 2, 200)}px`;
  const over = tooLong();
  els.counter.hidden = length < MAX_MESSAGE_CHARS * 0.9;
  els.counter.textContent = `${count.format(length)} / ${count.format(MAX_MESSAGE_CHARS)}${over ? " · too long" : ""}`;
  els.counter.classList.toggle("composer__count--over", over);
  // Send is off while the counter says too long; the counter says why.
  els.send.disabled = state.busy || over;
}

function submit() {
  const message = els.input.value;
  // Nothing to send (or too much) is not sent, and needs no message: the box shows it.
  if (state.busy || !message.trim() || tooLong()) return;
  els.input.value = "";
  updateComposer();
  ask(message);
}

function startNewConversation() {
  if (state.controller) state.controller.abort();
  state.controller = null;
  setBusy(false);
  session.clear();
  els.conversation.replaceChildren();
  els.welcome.hidden = false;
  els.input.value = "";
  updateComposer();
  els.input.focus();
  announce("New conversation started.");
}

function followCitation(event) {
  const link = event.target.closest("a.cite");
  if (!link) return;
  const card = document.getElementById(link.dataset.target);
  if (!card) return;
  event.preventDefault();
  card.scrollIntoView({ block: "nearest", behavior: reducedMotion() ? "auto" : "smooth" });
  card.focus({ preventScroll: true });
  card.classList.remove("card--flash");
  void card.offsetWidth; // restart the highlight animation
  card.classList.add("card--flash");
}

async function loadConfig() {
  try {
    const response = await fetch("./config.json", { cache: "no-store" });
    const config = response.ok ? await response.json() : {};
    if (typeof config.apiUrl === "string") state.apiUrl = config.apiUrl.replace(/\/+$/, "");
    if (typeof config.currency === "string" && /^[A-Z]{3}$/.test(config.currency)) {
      money = new Intl.NumberFormat("en-US", { style: "currency", currency: config.currency });
    }
    if (config.model === "offline" || config.model === "replay") {
      els.modelBadge.textContent = config.model === "offline" ? "offline model" : "replay model";
      els.modelBadge.title = "Answers come from a deterministic stand-in for the language model";
      els.modelBadge.hidden = false;
    }
  } catch {
    // No config: talk to the page's own origin, as the dev server expects.
  }
}

async function loadNames() {
  try {
    const response = await fetch(NAMES_URL, { cache: "no-store" });
    const names = response.ok ? await response.json() : null;
    for (const key of Object.keys(state.names)) {
      const table = names && names[key];
      if (table && typeof table === "object" && !Array.isArray(table)) state.names[key] = table;
    }
  } catch {
    // Without names.json answers and errors still show, with plainer words.
  }
}

/** Put back the kept turns, before anything asked since the page loaded. */
function restore() {
  const turns = session.turns();
  if (!turns.length) return;
  els.welcome.hidden = true;
  const kept = document.createDocumentFragment();
  for (const { message, body } of turns) {
    if (typeof message !== "string" || !body || typeof body !== "object") continue;
    kept.append(userTurn(message), answerTurn(body, `turn-${++state.turn}`));
  }
  els.conversation.prepend(kept);
}

function init() {
  els.form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });
  els.input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
    }
  });
  els.input.addEventListener("input", updateComposer);
  els.newConversation.addEventListener("click", startNewConversation);
  els.conversation.addEventListener("click", followCitation);
  for (const button of document.querySelectorAll(".suggestion")) {
    button.addEventListener("click", () => {
      if (state.busy) return;
      els.input.value = button.textContent.trim();
      submit();
      els.input.focus();
    });
  }
  updateComposer();
  // Kept turns wait for the names, so that they are shown in the same words as new ones.
  state.configured = Promise.all([loadConfig(), loadNames()]).finally(() => {
    restore();
    document.documentElement.dataset.ready = "true";
  });
}

init();
