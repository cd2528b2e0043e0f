// "How I found this": under each answer, the turn's tool calls (tool, input, status,
// milliseconds, round, what the model was told), its model calls and its tokens.

import { count } from "./config.js";
import { el } from "./dom.js";

// The trace line listing corrected facts: compose_response.facts.TRACE_STEP. It is not a tool call.
const CHECK_FACTS_STEP = "check_facts";

export function traceBlock(body) {
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
