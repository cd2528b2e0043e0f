// storechat chat page: no build step, no dependencies. This module starts the page and
// runs the conversation; the rest is in modules of their own: config.js (config.json and
// names.json), session.js (the kept session), api.js (POST /query), steps.js (the live
// trace), turns.js with answer-text.js, cards.js and trace.js (what a turn shows),
// composer.js (the message box) and dom.js (building elements).
//
// Safety rule for every module: text from the model or the server is only ever placed
// with textContent / createTextNode, never parsed as HTML.

import { describeFailure, postQuery, REQUEST_TIMEOUT_MS } from "./api.js";
import { composer } from "./composer.js";
import { loadConfig, loadNames, page } from "./config.js";
import { announce, el, reducedMotion, scrollToTurn } from "./dom.js";
import { session } from "./session.js";
import { followSteps, newTurnId, showSteps } from "./steps.js";
import { answerTurn, errorTurn, pendingTurn, userTurn } from "./turns.js";

const conversation = document.getElementById("conversation");
const welcome = document.getElementById("welcome");
const modelBadge = document.getElementById("model-badge");

const state = {
  turn: 0,
  controller: null,
  configured: Promise.resolve(),
};

function setBusy(busy) {
  composer.setBusy(busy);
  conversation.setAttribute("aria-busy", String(busy));
}

async function ask(message) {
  if (composer.busy) return;
  const sentSessionId = session.id;
  welcome.hidden = true;
  const question = userTurn(message);
  const pending = pendingTurn();
  conversation.append(question, pending);
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
  const stopSteps = followSteps(`${page.apiUrl}/query/${turnId}/steps`,
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
    conversation.append(turn);
    scrollToTurn(turn);
    const heading = body.outcome === "fallback" ? "storechat could not finish. " : "storechat answered. ";
    announce(heading + String(body.answer || ""));
    return;
  }

  const failure = describeFailure(result);
  if (!failure.retryable) {
    question.classList.add("turn--unsent");
    question.append(el("p", { class: "turn__status", text: "Not sent" }));
    composer.putBack(message);
  }
  const turn = errorTurn({
    title: failure.title,
    detail: failure.detail,
    hint: failure.hint,
    code: failure.code,
    retry: failure.retryable ? () => { question.remove(); ask(message); } : null,
  });
  conversation.append(turn);
  scrollToTurn(turn);
  announce(`${failure.title}. ${failure.detail}`);
}

function startNewConversation() {
  if (state.controller) state.controller.abort();
  state.controller = null;
  setBusy(false);
  session.clear();
  conversation.replaceChildren();
  welcome.hidden = false;
  composer.reset();
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

function showModelBadge() {
  if (page.model !== "offline" && page.model !== "replay") return;
  modelBadge.textContent = page.model === "offline" ? "offline model" : "replay model";
  modelBadge.title = "Answers come from a deterministic stand-in for the language model";
  modelBadge.hidden = false;
}

/** Put back the kept turns, before anything asked since the page loaded. */
function restore() {
  const turns = session.turns();
  if (!turns.length) return;
  welcome.hidden = true;
  const kept = document.createDocumentFragment();
  for (const { message, body } of turns) {
    if (typeof message !== "string" || !body || typeof body !== "object") continue;
    kept.append(userTurn(message), answerTurn(body, `turn-${++state.turn}`));
  }
  conversation.prepend(kept);
}

function init() {
  composer.start(ask, document.querySelectorAll(".suggestion"));
  document.getElementById("new-conversation").addEventListener("click", startNewConversation);
  conversation.addEventListener("click", followCitation);
  // Kept turns wait for the names, so that they are shown in the same words as new ones.
  state.configured = Promise.all([loadConfig().then(showModelBadge), loadNames()]).finally(() => {
    restore();
    document.documentElement.dataset.ready = "true";
  });
}

init();
