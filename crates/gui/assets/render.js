// Drawing the page from the model: the players, the marks on the board,
// what is happening in words, the controls, the engine lines, the moves,
// the review and its graph, the ending, the position editor's controls.
// Each part reads the model and writes the DOM; none changes the model.

import { SIDES } from "./board.js";
import { CONFIG } from "./config.js";
import { render as renderText, t } from "./i18n.js";
import { currentCheck, editorTfen, legal, total, TOTAL, tuzdikOwner } from "./editor.js";
import { accepting, answering, bottomSide, previewOn, shownPreview } from "./state.js";

const $ = (id) => document.getElementById(id);
const other = (side) => (side === "white" ? "black" : "white");
const SVG = "http://www.w3.org/2000/svg";

// ---- words ----

// A score in stones, White's view: "+1.4", or who wins by force.
export function scoreText(score) {
  if (!score) return "";
  if (score.mate !== undefined && score.mate !== null) {
    const winner = score.white > 0 ? "white" : "black";
    return t("score_mate_" + winner, { n: Math.abs(score.mate) });
  }
  const stones = (score.white_cp ?? score.white) / 100;
  return (stones > 0 ? "+" : stones < 0 ? "−" : "") + Math.abs(stones).toFixed(1);
}

// Who plays `side`, and the side: "You · White", "Level 5 · Black"; two
// people on one board are just "White" and "Black".
function playerLabel(state, side) {
  const s = state.settings;
  const engine = s.movetime_ms ? t("engine_time", { seconds: s.movetime_ms / 1000 }) : t("engine_level", { level: s.level });
  if (s.mode === "engine") return `${side === s.human ? t("you") : engine} · ${t(side)}`;
  if (s.mode === "engines") return `${engine} · ${t(side)}`;
  return t(side);
}

function lastMoveText(last) {
  const mover = last.mover;
  const whose = last.landing_side === mover ? t("whose_own") : t("whose_opponent");
  const parts = [t("last_move", { side: t(mover), hole: last.hole, whose, landing: last.landing_number })];
  const owner = other(last.landing_side);
  if (last.tuzdik) parts.push(t("last_tuzdik", { side: t(mover) }));
  else if (last.captured) parts.push(t("last_capture", { count: last.captured, side: t(mover) }));
  else if (last.into_tuzdik) parts.push(t("last_into_tuzdik", { owner: t(owner) }));
  else if (last.refused) parts.push(t("last_refused", { reason: t("refused_" + last.refused + "_they", { side: t(mover) }) }));
  else if (last.landing_side === mover) parts.push(t("last_own_side", { side: t(mover) }));
  else parts.push(t("last_odd", { count: last.found }));
  SIDES.forEach((side, i) => {
    const n = last.to_tuzdiks[i] - (last.into_tuzdik && owner === side ? 1 : 0);
    if (n > 0) parts.push(t("last_fed_tuzdik", { n, owner: t(side) }));
  });
  return parts.join(" ");
}

function previewText(p, mover) {
  const whose = p.landing_side === mover ? t("whose_your") : t("whose_yours_opp");
  const parts = [t("preview_head", { hole: p.hole, sown: p.sown, whose, landing: p.landing_number, found: p.found })];
  parts.push(p.sown === 1 ? t("preview_single") : t("preview_first_back", { hole: p.hole }));
  if (p.tuzdik) parts.push(t("preview_tuzdik"));
  else if (p.captured) parts.push(t("preview_capture", { n: p.captured }));
  else if (p.into_tuzdik) parts.push(t("preview_into_tuzdik"));
  else if (p.refused) parts.push(t("preview_refused", { reason: t("refused_" + p.refused) }));
  else if (p.landing_side === mover) parts.push(t("preview_own_side"));
  else parts.push(t("preview_odd"));
  const me = SIDES.indexOf(mover);
  if (p.to_tuzdiks[me] > 0) parts.push(t("preview_feeds_yours", { n: p.to_tuzdiks[me] }));
  if (p.to_tuzdiks[1 - me] > 0) parts.push(t("preview_feeds_theirs", { n: p.to_tuzdiks[1 - me] }));
  const ownNine = me * 9 + 8;
  const theirOne = (1 - me) * 9;
  const path = p.path;
  if (p.landing === theirOne && path.length >= 2 && path[path.length - 2] === ownNine) parts.push(t("preview_no_kazan"));
  if (p.sown > 18) parts.push(t("preview_laps"));
  return parts.join(" ");
}

function endingHead(state) {
  const ending = state.ending;
  if (!ending.winner) return t("result_draw");
  if (state.settings.mode === "engine") return ending.winner === state.settings.human ? t("result_you_won") : t("result_you_lost");
  return t("result_side_won", { side: t(ending.winner) });
}

function endingText(ending) {
  const reason = ending.reason === "resigned" ? t("end_resigned", { side: t(ending.resigned) }) : t("end_" + ending.reason);
  return `${reason} ${t("final_count", { white: ending.count[0], black: ending.count[1] })}.`;
}

// Moves of a line with their numbers, from the position `board`:
// [{label, number}] where number is "12." or "12…" before a move.
export function numberedMoves(board, pv) {
  let fullmove = board.fullmove;
  let side = board.to_move;
  return pv.map((hole, i) => {
    let number = "";
    if (side === "white") number = `${fullmove}.`;
    else if (i === 0) number = `${fullmove}…`;
    const entry = { hole, number };
    if (side === "black") fullmove += 1;
    side = other(side);
    return entry;
  });
}

// ---- parts of the page ----

function renderPlayers(model) {
  const state = model.server;
  const shown = model.lineView ? null : model.shown;
  const bottom = bottomSide(model);
  for (const [id, side] of [["player-top", other(bottom)], ["player-bottom", bottom]]) {
    const el = $(id);
    el.dataset.side = side;
    el.querySelector(".who").textContent = state ? playerLabel(state, side) : "";
    const editor = model.editor;
    const toMove = editor ? editor.to_move === side : !!shown && !shown.ending && shown.board.to_move === side && !shown.viewing;
    el.classList.toggle("to-move", toMove);
  }
}

// The board's marks, labels and focus order. The position itself is drawn
// by the sower (`drawPosition`).
function renderBoard(model, board, sowing) {
  const shown = model.shown;
  if (!shown) return;
  board.mark("selected", model.editor ? [model.editor.selected] : []);
  if (model.editor) {
    renderEditorBoard(model, board);
    return;
  }
  const line = model.lineView;
  const taking = accepting(model, sowing) || answering(model, sowing);
  const preview = shownPreview(model, sowing);
  board.orient(bottomSide(model));
  board.mark("playable", taking ? shown.previews.map((p) => p.origin) : []);
  board.mark("pressed", [model.pressed]);
  board.mark("hover", model.pressed === null ? [model.hover] : []);
  board.mark("focus", [model.focus]);
  board.showPath(preview);
  if (line) {
    const step = line.view.steps[line.step];
    board.mark("last-from", [step.origin]);
    board.mark("last-to", [step.landing]);
  } else {
    const last = !preview && shown.last && !sowing ? shown.last : null;
    board.mark("last-from", last ? [last.origin] : []);
    board.mark("last-to", last && last.landing < 18 ? [last.landing] : []);
  }
  const hint = model.server?.hint;
  const hinted = hint && taking ? shown.previews.find((p) => p.hole === hint.hole)?.origin : null;
  board.mark("hint", [hinted]);
  const mode = shown.settings.mode;
  const human = shown.settings.human;
  const tuzdiks = shown.board.tuzdiks;
  board.setLabels((index) => {
    const side = SIDES[Math.floor(index / 9)];
    const n = (index % 9) + 1;
    let name;
    if (mode === "engine") name = side === human ? t("hole_own", { n }) : t("hole_opponent", { n });
    else name = t("hole_side", { side: t(side), n });
    const owner = tuzdiks.findIndex((x) => x === index);
    const what = owner >= 0 ? t("hole_tuzdik", { owner: t(SIDES[owner]) }) : t("hole_stones", { count: shown.board.holes[index] });
    const playable = taking && shown.previews.some((p) => p.origin === index);
    return `${name}: ${what}${playable ? ", " + t("hole_playable") : ""}`;
  });
  board.setTitles(
    (side) => t("kazan_title", { side: t(side), n: shown.board.kazans[SIDES.indexOf(side)] }),
    (owner) => t("tuzdik_badge", { owner: t(owner) }),
  );
  // One hole of the row to move takes the Tab key; the arrows do the rest.
  const row = rowToMove(model, board);
  const tabbed = row.includes(model.focus) ? model.focus : (row.find((i) => shown.previews.some((p) => p.origin === i)) ?? row[0]);
  board.holes.forEach((hole, index) => (hole.el.tabIndex = index === tabbed ? 0 : -1));
}

// The editor's board: no moves, the hole selected marked, every hole
// named with what it holds, one of them in the Tab order (the arrows walk
// the rest).
function renderEditorBoard(model, board) {
  const editor = model.editor;
  board.orient(bottomSide(model));
  for (const cls of ["playable", "pressed", "hover", "focus", "last-from", "last-to", "hint"]) board.mark(cls, []);
  board.showPath(null);
  board.setLabels((index) => {
    const side = SIDES[Math.floor(index / 9)];
    const name = t("hole_side", { side: t(side), n: (index % 9) + 1 });
    const owner = tuzdikOwner(editor, index);
    return `${name}: ${owner ? t("hole_tuzdik", { owner: t(owner) }) : t("hole_stones", { count: editor.holes[index] })}`;
  });
  board.setTitles(
    (side) => t("kazan_title", { side: t(side), n: editor.kazans[SIDES.indexOf(side)] }),
    (owner) => t("tuzdik_badge", { owner: t(owner) }),
  );
  const tabbed = editor.selected ?? board.visualOrder("bottom")[0];
  board.holes.forEach((hole, index) => (hole.el.tabIndex = index === tabbed ? 0 : -1));
}

// A field's value, unless a person is typing in it.
function setValue(id, value) {
  const el = $(id);
  if (document.activeElement !== el) el.value = value;
}

// The position editor's controls: the tool, the selected hole's count, the
// kazans, the side to move, the total against 162, the TFEN, and the
// server's word on the position, which alone enables Play and Save.
function renderEditor(model) {
  const editor = model.editor;
  $("editor").hidden = !editor;
  if (!editor) return;
  for (const button of document.querySelectorAll("#editor [data-tool]")) button.setAttribute("aria-pressed", String(button.dataset.tool === editor.tool));
  const selected = editor.selected;
  const count = $("editor-count");
  if (selected === null) {
    $("editor-count-label").textContent = t("editor_count_none");
    count.disabled = true;
    count.value = "";
  } else {
    const side = SIDES[Math.floor(selected / 9)];
    $("editor-count-label").textContent = t("editor_count", { hole: t("hole_side", { side: t(side), n: (selected % 9) + 1 }) });
    count.disabled = !!tuzdikOwner(editor, selected);
    setValue("editor-count", count.disabled ? "" : editor.holes[selected]);
  }
  SIDES.forEach((side, i) => {
    $(`editor-kazan-${side}-label`).textContent = t("editor_kazan", { side: t(side) });
    setValue(`editor-kazan-${side}`, editor.kazans[i]);
  });
  for (const radio of document.querySelectorAll("input[name=editor-side]")) radio.checked = radio.value === editor.to_move;
  const stones = total(editor);
  $("editor-total").textContent = t("editor_total", { n: stones });
  $("editor-total").dataset.off = stones === TOTAL ? "0" : "1";
  setValue("editor-tfen", editorTfen(editor));
  const check = currentCheck(editor);
  const line = $("editor-check");
  line.textContent = !check ? t("editor_checking") : check.ok ? t("editor_legal") : t("editor_illegal", { detail: check.error });
  line.dataset.ok = !check ? "" : check.ok ? "1" : "0";
  const ready = legal(editor) && model.connection === "connected" && !editor.playing;
  $("editor-play").disabled = !ready;
  $("editor-save").disabled = !ready;
  const said = editor.explain ? t(editor.explain.key, editor.explain.params) : model.message ? renderText(model.message.text) : "";
  $("editor-explain").textContent = said;
  $("editor-explain").dataset.kind = editor.explain ? "notice" : (model.message?.kind ?? "");
}

// The holes of the side to move, left to right on the screen.
export function rowToMove(model, board) {
  const shown = model.shown;
  const side = shown ? shown.board.to_move : "white";
  const place = side === bottomSide(model) ? "bottom" : "top";
  return board.visualOrder(place);
}

function renderStatus(model, sowing) {
  const state = model.server;
  const shown = model.shown;
  let status = "";
  let explain = "";
  if (state && shown) {
    const preview = shownPreview(model, sowing);
    if (shown.ending) status = t("status_game_over");
    else if (state.engine.failed) status = t("status_engine_failed");
    else if (shown.viewing) status = "";
    else if (state.thinking) status = t("status_thinking");
    else if (state.paused) status = t("status_paused");
    else if (shown.playable && state.settings.mode === "engine") status = t("status_your_turn");
    else status = t("status_to_move", { side: t(shown.board.to_move) });
    if (model.explain) explain = t(model.explain.key, model.explain.params);
    else if (preview) explain = previewText(preview, shown.board.to_move);
    else if (shown.last && !model.lineView && !sowing) explain = lastMoveText(shown.last);
  } else {
    status = t(model.connection);
  }
  $("status").textContent = status;
  $("explain").textContent = explain;
  const message = $("message");
  message.textContent = model.message ? renderText(model.message.text) : "";
  message.dataset.kind = model.message?.kind ?? "";
  // Banners: a past position, an engine line.
  const viewing = !!shown?.viewing && !model.lineView && !model.server?.learn;
  $("view-banner").hidden = !viewing;
  if (viewing) $("view-text").textContent = t("status_viewing", { ply: shown.ply, plies: shown.plies });
  const line = model.lineView;
  $("line-banner").hidden = !line;
  if (line) {
    const moves = numberedMoves(shown.board, line.view.steps.map((s) => s.hole))
      .slice(0, line.step + 1)
      .map((m) => (m.number ? m.number + " " : "") + m.hole)
      .join(" ");
    $("line-text").textContent = t("status_line", { moves });
    $("line-prev").disabled = line.step === 0;
    $("line-next").disabled = line.step === line.view.steps.length - 1;
  }
}

function renderControls(model) {
  const state = model.server;
  const ready = !!state && model.connection === "connected";
  const over = !!state?.ending;
  const engines = state?.settings.mode === "engines";
  $("undo").disabled = !ready || state.plies === 0;
  $("hint").disabled = !ready || over || state.viewing || !state.playable;
  $("resign").disabled = !ready || over;
  $("pause").hidden = !engines || over;
  $("pause").textContent = state?.paused ? t("resume") : t("pause");
  $("resume").hidden = !state?.engine.failed;
  $("review-button").disabled = !ready || !state.plies;
  const hint = state?.hint;
  $("hint-text").textContent = hint
    ? t("hint_text", { hole: hint.hole, score: scoreText(hint.score), line: hint.pv.join(" ") })
    : model.hintAsked
      ? t("hint_wait")
      : "";
  const tfen = $("tfen");
  if (document.activeElement !== tfen && model.shown) tfen.value = model.lineView ? tfen.value : model.shown.tfen;
  if (state) $("record").value = state.record;
  const ending = model.shown?.ending;
  $("ending").hidden = !ending || !!model.shown.viewing;
  if (ending) {
    $("ending-head").textContent = endingHead(model.shown);
    $("ending-text").textContent = endingText(ending);
  }
}

function renderAnalysis(model) {
  const state = model.server;
  const shown = model.shown;
  const on = !!state?.analysis;
  $("analysis-toggle").checked = on;
  $("analysis-note").textContent = on ? t("analysis_unit") : t("analysis_off_text");
  const list = $("lines");
  const lines = on && shown ? shown.lines : [];
  // Lines are updated in place, element by element, so that a move being
  // clicked is not replaced under the pointer as the engine deepens.
  const waiting = on && shown && lines.length === 0 && !shown.ending;
  const rows = waiting ? 1 : lines.length;
  while (list.childElementCount > rows) list.lastElementChild.remove();
  while (list.childElementCount < rows) {
    const item = document.createElement("li");
    const score = document.createElement("span");
    score.className = "score";
    const moves = document.createElement("span");
    moves.className = "pvs";
    const depth = document.createElement("span");
    depth.className = "depth";
    item.append(score, moves, depth);
    list.append(item);
  }
  if (waiting) {
    const item = list.firstElementChild;
    item.children[0].textContent = t("analysis_waiting");
    item.children[1].replaceChildren();
    item.children[2].textContent = "";
  }
  lines.forEach((line, lineIndex) => {
    const item = list.children[lineIndex];
    item.children[0].textContent = scoreText(line.score);
    item.children[2].textContent = t("depth", { n: line.depth ?? "?" });
    const cells = item.children[1];
    const moves = numberedMoves(shown.board, line.pv);
    while (cells.childElementCount > moves.length) cells.lastElementChild.remove();
    while (cells.childElementCount < moves.length) {
      const cell = document.createElement("span");
      const num = document.createElement("span");
      num.className = "num";
      const button = document.createElement("button");
      button.type = "button";
      button.className = "pv";
      cell.append(num, button);
      cells.append(cell);
    }
    moves.forEach((move, k) => {
      const [num, button] = cells.children[k].children;
      num.textContent = move.number;
      button.textContent = move.hole;
      button.title = t("line_title");
      button.dataset.line = lineIndex;
      button.dataset.step = k;
      const current = model.lineView && model.lineView.lineIndex === lineIndex && model.lineView.step === k;
      button.classList.toggle("current", !!current);
    });
  });
  // The bar: only with the analysis on, the bottom side's share from below.
  const bar = $("eval-bar");
  const evaluation = on && shown ? shown.evaluation : null;
  bar.hidden = !evaluation;
  if (evaluation) {
    const bottom = bottomSide(model);
    const white = 50 + 50 * Math.tanh(evaluation.white / 1000);
    bar.dataset.bottom = bottom;
    $("eval-fill").style.height = `${bottom === "white" ? white : 100 - white}%`;
    bar.title = t("eval_bar", { score: scoreText(evaluation) });
  }
}

let explorerKey = "";

// The opening explorer: the moves played in the position shown, most
// played first, with what became of their games.
function renderExplorer(model) {
  const panel = $("explorer-panel");
  panel.open = model.explorerOpen;
  const shown = model.shown;
  const answer = model.explorer;
  const current = !!shown && !!answer && answer.tfen === shown.tfen;
  const key = [model.explorerOpen, current ? answer.tfen : "", current ? answer.games : "", shown?.board.to_move, model.language].join("|");
  if (key === explorerKey) return;
  explorerKey = key;
  const body = $("explorer").tBodies[0];
  $("explorer").hidden = !current || answer.moves.length === 0;
  if (!model.explorerOpen || !shown) {
    body.replaceChildren();
    $("explorer-note").textContent = "";
    return;
  }
  if (!current) {
    $("explorer-note").textContent = t("explorer_loading");
    return;
  }
  $("explorer-note").textContent = answer.games
    ? t("explorer_total", { games: answer.games })
    : t("explorer_none");
  const rows = answer.moves.map((move) => {
    const row = document.createElement("tr");
    const hole = document.createElement("td");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "explore-move";
    button.textContent = move.hole;
    button.dataset.hole = move.hole;
    button.title = t("explorer_play", { hole: move.hole });
    hole.append(button);
    const games = document.createElement("td");
    games.className = "number";
    games.textContent = move.games;
    const results = document.createElement("td");
    const bar = document.createElement("div");
    bar.className = "results";
    for (const [cls, n] of [["white", move.white_wins], ["draw", move.draws], ["black", move.black_wins]]) {
      const part = document.createElement("span");
      part.className = cls;
      const share = move.games ? (100 * n) / move.games : 0;
      part.style.width = `${share}%`;
      if (share >= 12) part.textContent = `${Math.round(share)}%`;
      bar.append(part);
    }
    bar.title = `${move.white_wins} / ${move.draws} / ${move.black_wins}`;
    results.append(bar);
    const rating = document.createElement("td");
    rating.className = "number";
    rating.textContent = move.avg_rating ?? "";
    row.append(hole, games, results, rating);
    return row;
  });
  body.replaceChildren(...rows);
}

let movesKey = "";

function renderMoves(model) {
  const state = model.server;
  const shown = model.shown;
  if (!state || !shown) return;
  const marks = state.review?.moves.map((m) => m.mark ?? "").join(",") ?? "";
  const key = [state.line, state.plies, shown.ply, marks, model.language].join("|");
  if (key === movesKey) return;
  movesKey = key;
  const body = $("moves").tBodies[0];
  const rows = [];
  const start = document.createElement("tr");
  const startCell = document.createElement("td");
  startCell.colSpan = 3;
  startCell.append(moveButton(t("move_start"), 0, shown.ply === 0, null, ""));
  start.append(startCell);
  rows.push(start);
  let row = null;
  state.moves.forEach((move, i) => {
    if (!row || move.mover === "white") {
      row = document.createElement("tr");
      const number = document.createElement("td");
      number.className = "number";
      number.textContent = move.number + ".";
      row.append(number, document.createElement("td"), document.createElement("td"));
      rows.push(row);
    }
    const mark = state.review?.moves.find((m) => m.ply === i)?.mark ?? null;
    const whose = move.landing_side === move.mover ? t("whose_own") : t("whose_opponent");
    let title = t("token_title", { mover: t(move.mover), hole: move.hole, whose, landing: move.landing_number });
    if (move.tuzdik) title += t("token_title_tuzdik");
    if (move.captured) title += t("token_title_capture", { n: move.captured, kazan: move.kazan });
    if (mark) title += ` (${t("mark_" + mark)})`;
    const cell = row.children[move.mover === "white" ? 1 : 2];
    cell.append(moveButton(move.token, i + 1, shown.ply === i + 1, mark, title));
  });
  body.replaceChildren(...rows);
  const current = body.querySelector("button.current");
  if (current) {
    const box = $("moves-scroll");
    const top = current.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 30) box.scrollTop = Math.max(0, top - box.clientHeight / 2);
  }
}

function moveButton(text, ply, current, mark, title) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = text;
  button.dataset.ply = ply;
  if (title) button.title = title;
  button.classList.toggle("current", current);
  if (mark) button.classList.add(mark);
  return button;
}

function renderReview(model) {
  const state = model.server;
  const review = state?.review;
  $("review-status").textContent = review
    ? review.done
      ? t("reviewed", { total: review.total })
      : t("reviewing", { done: review.moves.length, total: review.total })
    : "";
  const summary = $("review-summary");
  const lines = [];
  if (review?.done) {
    SIDES.forEach((side, i) => {
      const s = review.summary[i];
      const line = document.createElement("div");
      line.textContent = t("accuracy", { side: t(side), accuracy: s.accuracy, loss: s.average_loss, i: s.marks[0], m: s.marks[1], b: s.marks[2] });
      lines.push(line);
    });
    if (review.rejected) lines.push(document.createTextNode(renderText(review.rejected)));
  }
  summary.replaceChildren(...lines);
  drawGraph(review, model.shown?.ply ?? 0);
}

// Centistones as stones, one decimal.
const stones = (cp) => (cp / 100).toFixed(1);

// "Learn from your mistakes": the offer after a review, and the banner
// above the board with the exercise, the verdict, the engine's line.
function renderLearn(model) {
  const state = model.server;
  const learn = state?.learn;
  const review = state?.review;
  const engine = state?.settings.mode === "engine";
  const counts = review?.summary.map((s) => s.marks[1] + s.marks[2]) ?? [0, 0];
  const mine = engine ? counts[SIDES.indexOf(state.settings.human)] : counts[0] + counts[1];
  $("learn-start").hidden = !review?.done || !!learn || mine === 0;
  $("learn-side").hidden = engine;
  const banner = $("learn-banner");
  banner.hidden = !learn;
  if (!learn) return;
  const e = learn.exercise;
  let head = "";
  let text = "";
  let verdict = "";
  if (learn.preparing) {
    head = t("learn_title");
    text = t("learn_preparing");
  } else if (e) {
    head = t("learn_find", { side: t(e.mover) });
    const progress = learn.stored ? "" : t("learn_progress", { n: learn.index + 1, total: learn.total }) + " ";
    const answer = e.answer;
    if (e.solved) {
      verdict = "found";
      text = t("learn_found", { hole: answer.hole });
    } else if (e.revealed) {
      text = t("learn_revealed", { hole: e.best });
    } else if (answer && !answer.accepted) {
      verdict = "refused";
      text = answer.loss === null ? t("learn_refused_unknown", { hole: answer.hole }) : t("learn_refused", { hole: answer.hole, loss: stones(answer.loss) });
    } else if (learn.stored) {
      text = t("learn_played_stored", { hole: e.played });
    } else {
      text = t("learn_played", { hole: e.played, loss: stones(e.loss), mark: t("mark_" + e.mark) });
    }
    text = progress + text;
  } else {
    head = t("learn_done");
    text = learn.total ? t("learn_summary", { found: learn.found, total: learn.total }) : t("learn_none");
  }
  $("learn-head").textContent = head;
  $("learn-text").textContent = text;
  banner.dataset.verdict = verdict;
  const told = !!e && (e.solved || e.revealed);
  const line = $("learn-line");
  const pv = told ? e.pv : [];
  const key = told ? [e.ply, pv.join(" "), model.lineView?.step ?? -1, model.language].join("|") : "";
  if (line.dataset.key !== key) {
    line.dataset.key = key;
    const label = document.createElement("span");
    label.textContent = t("learn_line") + " ";
    const buttons = pv.map((hole, step) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "pv";
      button.textContent = hole;
      button.title = t("line_title");
      button.dataset.step = step;
      button.classList.toggle("current", model.lineView?.lineIndex === -1 && model.lineView.step === step);
      return button;
    });
    line.replaceChildren(...(pv.length ? [label, ...buttons] : []));
  }
  $("learn-show").hidden = !e || told;
  $("learn-next").hidden = !told;
  $("learn-next").textContent = learn.index + 1 >= learn.total ? t("learn_finish") : t("learn_next");
  $("learn-stop").textContent = e || learn.preparing ? t("learn_stop") : t("close");
}

// The stored mistakes, with a button to set each up again.
let mistakesKey = "";
let studiesKey = "";

function renderMistakes(model) {
  const key = JSON.stringify([model.mistakes, model.language]);
  if (key === mistakesKey) return;
  mistakesKey = key;
  const list = model.mistakes?.mistakes;
  $("mistakes-note").textContent = !list ? "" : list.length ? t("mistakes_intro") : t("mistakes_none");
  const items = (list ?? []).map((m) => {
    const item = document.createElement("li");
    const name = document.createElement("span");
    name.className = "name";
    const move = m.tfen.trim().split(/\s+/).pop();
    name.textContent = t("mistake_item", { side: t(m.mover), hole: m.played, move });
    const meta = document.createElement("span");
    meta.className = "meta";
    meta.textContent = t("mistake_solved", { n: m.solved });
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.id = m.id;
    button.textContent = t("open");
    item.append(name, meta, button);
    return item;
  });
  $("mistakes").replaceChildren(...items);
}

// The saved studies: name, date, the comment's beginning, and Open.
function renderStudies(model) {
  const key = JSON.stringify([model.studies, model.language]);
  if (key === studiesKey) return;
  studiesKey = key;
  const studies = model.studies;
  const list = studies?.studies;
  $("studies-note").textContent = !list ? "" : list.length ? "" : t("studies_none");
  const items = (list ?? []).map((s) => {
    const item = document.createElement("li");
    item.classList.toggle("current", s.id === studies.current);
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = s.name;
    const meta = document.createElement("span");
    meta.className = "meta";
    meta.textContent = t("study_meta", { date: s.created.slice(0, 10), plies: s.plies });
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.id = s.id;
    button.textContent = t("open");
    item.append(name, meta, button);
    if (s.comment) {
      const excerpt = document.createElement("span");
      excerpt.className = "excerpt";
      excerpt.textContent = s.comment.length > 120 ? s.comment.slice(0, 120) + "…" : s.comment;
      item.append(excerpt);
    }
    return item;
  });
  $("studies").replaceChildren(...items);
}

let graphKey = "";

// The score after each move, White's share shaded; the current move a line.
function drawGraph(review, ply) {
  const key = review ? [review.moves.length, review.total, review.done, ply].join("|") : "";
  if (key === graphKey) return;
  graphKey = key;
  const box = $("graph-box");
  const svg = $("graph");
  const show = !!review && review.moves.length > 0;
  box.hidden = !show;
  const title = svg.querySelector("title");
  svg.replaceChildren(title);
  if (!show) return;
  const width = 300;
  const height = 100;
  const total = Math.max(review.total, 1);
  const x = (p) => (p / total) * width;
  const y = (white) => height / 2 - (Math.max(-2000, Math.min(2000, white)) / 2000) * (height / 2);
  const points = [[0, height / 2]].concat(review.moves.map((m) => [x(m.ply + 1), y(m.after?.white ?? 0)]));
  const add = (tag, attrs) => {
    const el = document.createElementNS(SVG, tag);
    Object.entries(attrs).forEach(([k, v]) => el.setAttribute(k, v));
    svg.append(el);
    return el;
  };
  const last = points[points.length - 1];
  add("polygon", { points: [...points, [last[0], height], [0, height]].map((p) => p.join(",")).join(" "), class: "white-area" });
  add("line", { x1: 0, y1: height / 2, x2: width, y2: height / 2, class: "axis" });
  add("polyline", { points: points.map((p) => p.join(",")).join(" "), class: "score" });
  for (const m of review.moves) {
    if (m.mark) add("circle", { cx: x(m.ply + 1), cy: y(m.after?.white ?? 0), r: 3, class: m.mark });
  }
  add("line", { x1: x(ply), y1: 0, x2: x(ply), y2: height, class: "cursor" });
}

function renderBody(model, sowing) {
  const shown = model.shown;
  Object.assign(document.body.dataset, {
    connected: model.connection === "connected" ? "1" : "0",
    lang: model.language,
    page: model.page,
    ply: shown?.ply ?? "",
    plies: shown?.plies ?? "",
    over: shown?.ending ? "1" : "0",
    playable: accepting(model, sowing) ? "1" : "0",
    thinking: model.server?.thinking ? "1" : "0",
    version: shown?.version ?? "",
    sowing: sowing ? "1" : "0",
    // Whether the explorer has drawn its answer for the position shown
    // (or is closed): until it has, what lies below it on a phone moves.
    explorer: !model.explorerOpen || (!!shown && model.explorer?.tfen === shown.tfen) ? "1" : "0",
    preview: model.shown && previewOn(model.shown) ? "1" : "0",
    learn: learnStage(model.server?.learn),
    answering: answering(model, sowing) ? "1" : "0",
    editing: model.editor ? "1" : "0",
    editorLegal: model.editor && legal(model.editor) ? "1" : "0",
  });
}

// Where "learn from your mistakes" stands, for tests and styles.
function learnStage(learn) {
  if (!learn) return "";
  if (learn.preparing) return "preparing";
  const e = learn.exercise;
  if (!e) return "summary";
  if (e.solved) return "solved";
  if (e.revealed) return "revealed";
  return e.answer ? "refused" : "exercise";
}

export function renderPage(model, board, sowing) {
  renderPlayers(model);
  renderBoard(model, board, sowing);
  renderStatus(model, sowing);
  renderControls(model);
  renderAnalysis(model);
  renderExplorer(model);
  renderMoves(model);
  renderReview(model);
  renderLearn(model);
  renderMistakes(model);
  renderStudies(model);
  renderEditor(model);
  renderBody(model, sowing);
  for (const [id, page] of [
    ["nav-play", "play"],
    ["nav-rules", "rules"],
  ]) {
    if (model.page === page) $(id).setAttribute("aria-current", "page");
    else $(id).removeAttribute("aria-current");
  }
}

// Forces the moves table to be drawn again (the language changed).
export function invalidate() {
  movesKey = "";
  explorerKey = "";
}

// The strength menu: levels by number, weakest first, then the times.
export function strengthOptions() {
  const options = CONFIG.levels.map(({ number, elo }) => new Option(t("level_option", { n: number, elo }), "level:" + number));
  for (const ms of CONFIG.limits.movetime_choices_ms) options.push(new Option(t("time_option", { seconds: ms / 1000 }), "time:" + ms));
  return options;
}
