// The live trace: what the assistant is doing while a question runs.
//
// The page makes a random turn id for each question and sends it with the message;
// while POST /query runs, it reads GET {api}/query/{turnId}/steps every POLL_MS and
// draws each step as it happens. When no step can be read (an API without the route,
// a network error on this side channel) it stops trying and the plain spinner stays:
// the answer arrives the same way either way.
//
// Safety rule (as in app.js): step text is only ever placed with textContent.

// shared/trace/steps.py POLL_INTERVAL_MS (a test holds the two together).
export const POLL_MS = 500;
// Reads that may fail in a row before the page gives up on the trace for this question.
const MAX_FAILURES = 3;
const STATUSES = new Set(["running", "done", "failed"]);
const MARKS = { running: "", done: "✓", failed: "!" };
const STATUS_WORDS = { running: "in progress", done: "done", failed: "did not work" };

/** 128 random bits in hex: shared/trace/steps.py TURN_ID_PATTERN. */
export function newTurnId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function readable(step) {
  return step && typeof step.step === "string" && typeof step.line === "string"
    && STATUSES.has(step.status);
}

/**
 * Read `url` every POLL_MS and hand each list of steps to `onSteps`, until the returned
 * function is called. A 4xx (no such route) stops at once; other failures after a few.
 */
export function followSteps(url, onSteps) {
  const controller = new AbortController();
  let stopped = false;
  let failures = 0;
  let timer = null;
  const stop = () => {
    stopped = true;
    window.clearTimeout(timer);
    controller.abort();
  };
  const poll = async () => {
    try {
      const response = await fetch(url, { cache: "no-store", credentials: "omit", signal: controller.signal });
      if (response.status >= 400 && response.status < 500 && response.status !== 429) {
        stop();
        return;
      }
      const data = response.ok ? await response.json() : null;
      if (!data || !Array.isArray(data.steps)) throw new Error(`no steps (${response.status})`);
      failures = 0;
      if (!stopped) onSteps(data.steps.filter(readable));
    } catch {
      if (stopped) return;
      failures += 1;
      if (failures >= MAX_FAILURES) {
        stop();
        return;
      }
    }
    if (!stopped) timer = window.setTimeout(poll, POLL_MS);
  };
  timer = window.setTimeout(poll, POLL_MS);
  return stop;
}

function stepItem(step) {
  const item = document.createElement("li");
  const mark = document.createElement("span");
  mark.className = "live-step__mark";
  mark.setAttribute("aria-hidden", "true");
  const line = document.createElement("span");
  line.className = "live-step__line";
  const outcome = document.createElement("span");
  outcome.className = "live-step__outcome";
  const status = document.createElement("span");
  status.className = "visually-hidden";
  item.append(mark, line, outcome, status);
  item.dataset.step = step.step;
  return item;
}

/** Show `steps` in `list`: new ones appended in the turn's order, changed ones updated. */
export function showSteps(list, steps) {
  for (const step of steps) {
    let item = [...list.children].find((child) => child.dataset.step === step.step);
    if (!item) {
      item = stepItem(step);
      const after = [...list.children].find((child) => child.dataset.step > step.step);
      list.insertBefore(item, after || null);
    }
    const kind = typeof step.kind === "string" ? step.kind : "tool";
    const outcome = typeof step.outcome === "string" && step.outcome ? step.outcome : "";
    if (item.dataset.status === step.status && item.dataset.outcome === outcome) continue;
    item.className = `live-step live-step--${step.status} live-step--${kind}`;
    item.dataset.status = step.status;
    item.dataset.outcome = outcome;
    // The model's own words are a quote, not work with a result.
    item.querySelector(".live-step__mark").textContent = kind === "said" ? "" : MARKS[step.status];
    item.querySelector(".live-step__line").textContent =
      kind === "said" ? `“${step.line}”` : step.line;
    item.querySelector(".live-step__outcome").textContent = outcome ? ` · ${outcome}` : "";
    item.querySelector(".visually-hidden").textContent =
      outcome || kind === "said" ? "" : ` (${STATUS_WORDS[step.status]})`;
  }
  list.hidden = list.children.length === 0;
}
