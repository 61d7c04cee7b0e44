// The rules page, in the reader's language: the rules in the project's own
// words, each illustrated by a diagram that the server played with the
// rules engine (CONFIG.examples: the position before, the stones' path and
// what happened, the position after), the six common mistakes, and the
// notations.

import { BoardView } from "./board.js";
import { CONFIG } from "./config.js";
import { t } from "./i18n.js";

const SECTIONS = [
  ["rules_board_h", ["rules_board"], []],
  ["rules_move_h", ["rules_move", "rules_laps"], ["sowing", "single", "laps", "no_kazan"]],
  ["rules_capture_h", ["rules_capture"], ["odd"]],
  ["rules_tuzdik_h", ["rules_tuzdik", "rules_tuzdik_limits"], ["tuzdik", "refused_hole_nine", "refused_second_tuzdik", "refused_same_number", "into_tuzdik"]],
  ["rules_end_h", ["rules_end"], []],
];

const MISTAKES = ["kazan", "first", "second", "nine", "same", "feed"];

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function diagram(example) {
  const figure = el("figure", undefined, "diagram");
  figure.dataset.example = example.id;
  const pair = el("div", undefined, "pair");
  for (const [label, board, withPath] of [
    ["diagram_before", example.before, true],
    ["diagram_after", example.after, false],
  ]) {
    const cell = el("div");
    cell.append(el("span", t(label)));
    const root = el("div");
    const view = new BoardView(root, { interactive: false });
    view.orient(example.before.to_move);
    view.setPosition(board, true);
    if (withPath && example.preview) {
      view.showPath(example.preview);
      view.mark("last-from", [example.preview.origin]);
    }
    cell.append(root);
    pair.append(cell);
  }
  figure.append(pair, el("figcaption", t("ex_" + example.id)));
  return figure;
}

export function renderRules(root) {
  const examples = new Map(CONFIG.examples.map((e) => [e.id, e]));
  const nodes = [el("h1", t("rules_title")), el("p", t("rules_intro"))];
  const toc = el("nav", undefined, "toc");
  const ids = [...SECTIONS.map(([h]) => h), "rules_mistakes_h", "rules_notation_h"];
  for (const id of ids) {
    const link = el("a", t(id));
    link.href = "#" + id;
    link.addEventListener("click", (event) => {
      event.preventDefault();
      document.getElementById(id)?.scrollIntoView({ behavior: "smooth" });
    });
    toc.append(link);
  }
  nodes.push(toc);
  for (const [heading, paragraphs, shown] of SECTIONS) {
    const h = el("h2", t(heading));
    h.id = heading;
    nodes.push(h, ...paragraphs.map((key) => el("p", t(key))));
    for (const id of shown) {
      const example = examples.get(id);
      if (example) nodes.push(diagram(example));
    }
  }
  const mistakes = el("h2", t("rules_mistakes_h"));
  mistakes.id = "rules_mistakes_h";
  const list = el("dl", undefined, "mistakes");
  for (const key of MISTAKES) list.append(el("dt", t(`mistake_${key}_h`)), el("dd", t(`mistake_${key}`)));
  const notation = el("h2", t("rules_notation_h"));
  notation.id = "rules_notation_h";
  nodes.push(mistakes, el("p", t("rules_in_game")), list, notation, el("p", t("rules_notation")));
  root.replaceChildren(...nodes);
}
