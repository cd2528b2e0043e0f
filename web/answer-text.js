// An answer's text as the page shows it: paragraphs and lists, **bold**, [productId]
// citations that link to the product's card, and the facts the server corrected, marked.

import { el } from "./dom.js";

/**
 * The citations in `text`: "[id]" for a product the answer shows, found by its exact id,
 * whatever the id holds (the server writes every citation so: compose_response.known),
 * the longest id first where two could start at one place, and never a Markdown link's
 * text. Each as { index, end, id }.
 */
function citations(text, cards) {
  const ids = [...cards.keys()].sort((a, b) => b.length - a.length);
  const found = [];
  for (let at = text.indexOf("["); at >= 0; at = text.indexOf("[", at + 1)) {
    const id = ids.find((candidate) => text.startsWith(`[${candidate}]`, at)
      && text[at + candidate.length + 2] !== "(");
    if (id === undefined) continue;
    found.push({ index: at, end: at + id.length + 2, id });
    at += id.length + 1;
  }
  return found;
}

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
export function correctionMarks(body, answer) {
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
    for (const cited of citations(part, cards)) {
      out.push(...marked(part.slice(last, cited.index), marks, start + last));
      const card = cards.get(cited.id);
      out.push(el("a", {
        class: "cite",
        href: `#${card.id}`,
        "aria-label": `${card.name} (${cited.id}): see the product card`,
        dataset: { target: card.id },
        text: cited.id,
      }));
      last = cited.end;
    }
    out.push(...marked(part.slice(last), marks, start + last));
  }
  return out.filter((piece) => piece !== "");
}

/** Lines become paragraphs, "1." lines an ordered list, "-" lines a bulleted list. */
export function answerBlock(text, cards, marks = []) {
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
