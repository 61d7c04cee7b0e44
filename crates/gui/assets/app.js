// The page: one WebSocket to the server, which keeps the game and knows
// the rules. Events flow one way: a message or an input calls a
// transition (state.js), the sower draws the server's states on the board
// in order (sowing.js), and the page is rendered from the model
// (render.js). Nothing here decides a rule.

import { BoardView, SIDES } from "./board.js";
import { CONFIG } from "./config.js";
import * as E from "./editor.js";
import { TABLES, language, preferredLanguage, setLanguage, t, translateTree } from "./i18n.js";
import { bindBoard, bindEditor, pointerIntents } from "./input.js";
import { Connection } from "./net.js";
import { startPuzzles } from "./puzzles.js";
import { invalidate, renderPage, rowToMove, strengthOptions } from "./render.js";
import { renderRules } from "./rules.js";
import { Sound } from "./sound.js";
import { Sower } from "./sowing.js";
import * as S from "./state.js";

const $ = (id) => document.getElementById(id);

const model = S.createModel(setLanguage(S.prefs.get("language", preferredLanguage())));
const sound = new Sound();
sound.setEnabled(model.sound);
const board = new BoardView($("board"));
const sower = new Sower({
  board,
  // Nothing is sown under the position editor.
  speed: () => (model.editor ? "off" : model.animation),
  sound,
  draw: drawPosition,
  onError: (error) => console.error("tuzdyk: drawing failed", error),
  onIdle: update,
});
let freshConnection = false;
let resignArmed = null;
// The puzzle page, with its own board; "Analyse this position" shows the
// play page once the server has set the puzzle's position up there.
const puzzles = startPuzzles({
  send: (message) => connection.send(message),
  speed: () => model.animation,
  sound,
  prefs: S.prefs,
  page: () => model.page,
  analyse: () => {
    location.hash = "#play";
  },
});

// ---- rendering ----

let pending = false;
function update() {
  if (pending) return;
  pending = true;
  queueMicrotask(() => {
    pending = false;
    renderPage(model, board, sower.busy);
    followExplorer();
    followEditor();
  });
}

// The explorer follows the position shown: asked once per position.
function followExplorer() {
  const tfen = S.explorerQuestion(model);
  if (tfen && model.connection === "connected" && connection.send({ study: "explore", tfen })) {
    S.askedExplorer(model, tfen);
  }
}

// The sower settled on `state`: the position as the server sent it.
function drawPosition(state) {
  const before = model.shown;
  S.drawn(model, state);
  if (!model.lineView && !model.editor) board.setPosition(state.board, !!state.ending);
  renderPage(model, board, sower.busy);
  followExplorer();
  const human = state.settings.mode === "engine" ? state.settings.human : null;
  if (before && state.plies > before.plies && state.last && human && state.last.mover !== human && !state.viewing) {
    performance.mark("tuzdyk-reply-drawn", { detail: { engine_ms: state.engine_ms, plies: state.plies } });
  }
  if (state.ending && before && !before.ending && !state.viewing) sound.end(state.ending.winner === human);
}

function drawLineStep() {
  const line = model.lineView;
  if (line) board.setPosition(line.view.steps[line.step].board, false);
  else if (model.shown) board.setPosition(model.shown.board, !!model.shown.ending);
  update();
}

// ---- the server ----

const connection = new Connection({
  game: S.prefs.get("game", ""),
  onStatus: (status) => {
    model.connection = status;
    freshConnection = status === "connected";
    // An answer on the way may have been lost with the connection.
    if (freshConnection) S.askedExplorer(model, null);
    if (freshConnection && model.editor) E.asked(model.editor, null);
    if (freshConnection) puzzles.connected();
    update();
  },
  onMessage: receive,
});

let lineAsked = null;
let studySaving = false;

function receive(message) {
  switch (message.type) {
    case "state":
      S.prefs.set("game", message.game);
      // Played from the editor's position: the new game ends the editing.
      if (model.editor?.playing && message.line !== model.editor.playing.line) E.closeEditor(model);
      S.receiveState(model, message, freshConnection);
      freshConnection = false;
      sower.push(message);
      break;
    case "lines":
      S.receiveLines(model, message);
      break;
    case "error":
      studySaving = false;
      if (model.editor) model.editor.playing = null;
      editorSaving = null;
      if (puzzles.expectsAnswer()) {
        puzzles.error(message);
        break;
      }
      if (model.sent) sower.reset(model.server);
      S.receiveError(model, message);
      break;
    case "notice":
      S.receiveNotice(model, message);
      break;
    case "explorer":
      S.receiveExplorer(model, message);
      break;
    case "studies":
      S.receiveStudies(model, message);
      if (editorSaving !== null && model.editor && message.current !== null) {
        model.editor.explain = { key: "editor_saved", params: { name: editorSaving } };
        $("editor-study-name").value = "";
      }
      editorSaving = null;
      if (message.current !== null && studySaving) {
        $("study-name").value = "";
        $("study-comment").value = "";
      }
      studySaving = false;
      break;
    case "mistakes":
      S.receiveMistakes(model, message);
      break;
    case "puzzle":
      puzzles.receive(message);
      break;
    case "position_check":
      if (model.editor) E.receiveCheck(model.editor, message);
      break;
    case "line":
      if (lineAsked && message.steps.length && !model.editor) {
        S.openLine(model, message, lineAsked.lineIndex, Math.min(lineAsked.step, message.steps.length - 1));
        drawLineStep();
      }
      lineAsked = null;
      break;
    default:
  }
  update();
}

function send(command) {
  S.acted(model);
  if (!connection.send(command)) S.explain(model, model.connection);
  update();
}

// ---- the board ----

function pressable(index) {
  const shown = model.shown;
  if (!shown) return "turn";
  if (model.lineView) return "line";
  // An exercise takes an answer: a hole of the mover's row.
  const exercise = S.exercise(model);
  if (exercise) {
    if (SIDES[Math.floor(index / 9)] !== exercise.mover) return "opponent_row";
    if (!S.answering(model, sower.busy)) return "turn";
    if (shown.previews.some((p) => p.origin === index)) return true;
    return shown.board.tuzdiks.includes(index) ? "tuzdik" : "empty";
  }
  if (shown.viewing) return "viewing";
  if (shown.ending) return "over";
  const side = SIDES[Math.floor(index / 9)];
  if (side !== shown.board.to_move) return "opponent_row";
  if (!S.accepting(model, sower.busy)) return "turn";
  if (shown.previews.some((p) => p.origin === index)) return true;
  return shown.board.tuzdiks.includes(index) ? "tuzdik" : "empty";
}

function refuse(index, reason) {
  const hole = (index % 9) + 1;
  if (reason === "line") {
    S.closeLine(model);
    drawLineStep();
    return;
  }
  const top = model.shown && model.shown.board.to_move !== S.bottomSide(model);
  const keys = {
    opponent_row: top ? "explain_opponent_row_top" : "explain_opponent_row",
    empty: "explain_empty_hole",
    tuzdik: "explain_tuzdik_hole",
    turn: "explain_not_your_turn",
    over: "explain_game_over",
    viewing: "explain_viewing",
  };
  S.explain(model, keys[reason] ?? "explain_not_your_turn", { hole });
  update();
}

function play(index) {
  const shown = model.shown;
  const preview = shown?.previews.find((p) => p.origin === index);
  if (S.exercise(model)) {
    if (preview && S.answering(model, sower.busy)) {
      model.pressed = null;
      send({ cmd: "answer", hole: preview.hole });
    }
    return;
  }
  if (!preview || !S.accepting(model, sower.busy)) return;
  S.acted(model);
  model.pressed = null;
  model.hover = null;
  performance.mark("tuzdyk-play");
  if (!connection.send({ cmd: "play", hole: preview.hole })) {
    S.explain(model, model.connection);
    update();
    return;
  }
  model.sent = { line: shown.line, plies: shown.plies };
  sower.own(preview, shown);
  update();
}

bindBoard($("board"), {
  pressable,
  refuse,
  play,
  ...pointerIntents(model, board, update),
  row: () => rowToMove(model, board),
  editing: () => !!model.editor,
});

// ---- the position editor ----

let editorSaving = null;

// The server's word on the edited position, asked once per position.
function followEditor() {
  const editor = model.editor;
  const tfen = editor && E.checkQuestion(editor);
  if (tfen && model.connection === "connected" && connection.send({ study: "check_position", tfen })) E.asked(editor, tfen);
}

// An edit: the board drawn from the editor, the page from the model.
function edited(reason = null, index = null) {
  const editor = model.editor;
  if (!editor) return;
  S.acted(model);
  if (reason) editor.explain = { key: reason, params: { hole: (index % 9) + 1 } };
  board.setPosition(E.editorBoard(editor), false);
  update();
}

function openEditor() {
  if (!model.shown) return;
  S.acted(model);
  S.closeLine(model);
  Object.assign(model, { pressed: null, hover: null, focus: null });
  E.openEditor(model, model.shown.board);
  // Cut any sowing short: the board is the editor's now.
  sower.reset(model.server);
  edited();
  $("player-top").scrollIntoView({ block: "nearest" });
}

function closeEditor() {
  E.closeEditor(model);
  S.acted(model);
  if (model.shown) board.setPosition(model.shown.board, !!model.shown.ending);
  update();
}

// The hole next to `index` on screen in the direction of `key`.
function editorStep(index, key) {
  const rows = [board.visualOrder("top"), board.visualOrder("bottom")];
  const row = rows.findIndex((r) => r.includes(index));
  const at = rows[row].indexOf(index);
  if (key === "ArrowLeft") return rows[row][Math.max(0, at - 1)];
  if (key === "ArrowRight") return rows[row][Math.min(8, at + 1)];
  if (key === "Home") return rows[row][0];
  if (key === "End") return rows[row][8];
  return rows[key === "ArrowUp" ? 0 : 1][at];
}

bindEditor($("board"), {
  editing: () => !!model.editor,
  use: (index, remove) => model.editor && edited(E.useTool(model.editor, index, remove), index),
  key: (index, action) => {
    const editor = model.editor;
    if (!editor) return;
    if (action === "tuzdik") edited(E.toggleTuzdik(editor, index), index);
    else edited(action === "add" ? E.addStone(editor, index) : E.removeStone(editor, index), index);
  },
  step: editorStep,
  select: (index) => {
    if (!model.editor) return;
    E.select(model.editor, index);
    update();
  },
});

// ---- keys: the moves, an engine line ----

document.addEventListener("keydown", (event) => {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target.closest?.("input, select, textarea, dialog, .hole")) return;
  const line = model.lineView;
  const state = model.server;
  if (!state || model.page !== "play" || model.editor) return;
  // Keys pressed faster than the server answers step from the last one asked.
  const from = model.viewAsked ?? state.ply;
  const view = (ply) => {
    const target = Math.max(0, Math.min(state.plies, ply));
    model.viewAsked = target;
    send({ cmd: "view", ply: target >= state.plies ? null : target });
  };
  if (line) {
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      S.stepLine(model, event.key === "ArrowLeft" ? -1 : 1);
      drawLineStep();
    } else if (event.key === "Escape") {
      S.closeLine(model);
      drawLineStep();
    } else return;
  } else if (event.key === "ArrowLeft") view(from - 1);
  else if (event.key === "ArrowRight") {
    if (from < state.plies) view(from + 1);
  } else if (event.key === "Home") view(0);
  else if (event.key === "End") view(state.plies);
  else return;
  event.preventDefault();
});

// ---- buttons ----

const on = (id, event, handler) => $(id).addEventListener(event, handler);
const command = (id, cmd) => on(id, "click", () => send({ cmd }));

command("undo", "undo");
command("resume", "resume");
command("continue-here", "continue_here");
on("hint", "click", () => {
  model.hintAsked = true;
  send({ cmd: "hint" });
});
on("resign", "click", () => {
  if (resignArmed) {
    clearTimeout(resignArmed);
    resignArmed = null;
    $("resign").textContent = t("resign");
    send({ cmd: "resign" });
    return;
  }
  $("resign").textContent = t("resign_confirm");
  resignArmed = setTimeout(() => {
    resignArmed = null;
    $("resign").textContent = t("resign");
  }, 4000);
});
on("flip", "click", () => {
  model.flipped = !model.flipped;
  S.prefs.set("flipped", model.flipped ? "1" : "0");
  update();
});
on("pause", "click", () => send({ cmd: model.server?.paused ? "resume" : "pause" }));
on("back-to-game", "click", () => send({ cmd: "view", ply: null }));
on("analysis-toggle", "change", () => send({ cmd: "analysis", on: $("analysis-toggle").checked }));
const review = () => {
  send({ cmd: "review" });
  $("review-panel").scrollIntoView({ behavior: "smooth", block: "nearest" });
};
on("review-button", "click", review);
on("ending-review", "click", review);
on("line-prev", "click", () => {
  S.stepLine(model, -1);
  drawLineStep();
});
on("line-next", "click", () => {
  S.stepLine(model, 1);
  drawLineStep();
});
on("line-close", "click", () => {
  S.closeLine(model);
  drawLineStep();
});
// A move of a line answers the press itself (the lines change under the
// pointer as the engine deepens), or Enter on it.
const showLine = (event) => {
  const button = event.target.closest("button.pv");
  const shown = model.shown;
  if (!button || !shown) return;
  if (event.type === "click" && event.detail !== 0) return;
  const lineIndex = Number(button.dataset.line);
  const step = Number(button.dataset.step);
  const pv = shown.lines[lineIndex]?.pv ?? [];
  lineAsked = { lineIndex, step };
  send({ cmd: "line", ply: shown.ply, moves: pv.slice(0, CONFIG.limits.max_line_moves) });
};
on("lines", "pointerdown", showLine);
on("lines", "click", showLine);
// ---- learn from your mistakes ----

on("learn-button", "click", () => {
  const side = $("learn-side").value;
  send({ cmd: "learn", side: side || null });
});
command("learn-show", "show_answer");
command("learn-next", "next_exercise");
command("learn-stop", "stop_learning");
// The engine's line of an exercise, on the board as an analysis line is.
const showLearnLine = (event) => {
  const button = event.target.closest("button.pv");
  const exercise = model.server?.learn?.exercise;
  if (!button || !exercise) return;
  if (event.type === "click" && event.detail !== 0) return;
  lineAsked = { lineIndex: -1, step: Number(button.dataset.step) };
  send({ cmd: "line", ply: exercise.ply, moves: exercise.pv.slice(0, CONFIG.limits.max_line_moves) });
};
on("learn-line", "pointerdown", showLearnLine);
on("learn-line", "click", showLearnLine);
on("mistakes-panel", "toggle", () => {
  if ($("mistakes-panel").open) send({ study: "mistakes" });
});
on("mistakes", "click", (event) => {
  const button = event.target.closest("button[data-id]");
  if (button) send({ study: "open_mistake", id: Number(button.dataset.id) });
});

// ---- studies ----

on("game-panel", "toggle", () => {
  if ($("game-panel").open) send({ study: "studies" });
});
on("save-study", "click", () => {
  studySaving = true;
  send({ study: "save_study", name: $("study-name").value, comment: $("study-comment").value });
});
on("studies", "click", (event) => {
  const button = event.target.closest("button[data-id]");
  if (button) send({ study: "open_study", id: Number(button.dataset.id) });
});

on("explorer-panel", "toggle", () => {
  S.setExplorerOpen(model, $("explorer-panel").open);
  update();
});
// A move of the explorer is played as a click on its hole would be.
on("explorer", "click", (event) => {
  const button = event.target.closest("button.explore-move");
  const shown = model.shown;
  if (!button || !shown) return;
  const index = SIDES.indexOf(shown.board.to_move) * 9 + Number(button.dataset.hole) - 1;
  const allowed = pressable(index);
  if (allowed === true) play(index);
  else refuse(index, allowed);
});
on("moves", "click", (event) => {
  const button = event.target.closest("button[data-ply]");
  if (!button || !model.server) return;
  const ply = Number(button.dataset.ply);
  send({ cmd: "view", ply: ply >= model.server.plies ? null : ply });
});
on("graph", "pointerdown", (event) => {
  const state = model.server;
  if (!state?.review) return;
  const box = $("graph").getBoundingClientRect();
  const ply = Math.round(((event.clientX - box.left) / box.width) * Math.max(state.review.total, 1));
  const clamped = Math.max(0, Math.min(state.plies, ply));
  send({ cmd: "view", ply: clamped >= state.plies ? null : clamped });
});
on("set-up", "click", () => send({ cmd: "setup", tfen: $("tfen").value }));
on("edit-position", "click", openEditor);
on("editor-cancel", "click", closeEditor);
for (const button of document.querySelectorAll("#editor [data-tool]")) {
  button.addEventListener("click", () => {
    if (model.editor) E.setTool(model.editor, button.dataset.tool);
    update();
  });
}
const editorField = (id, change) =>
  on(id, "input", () => {
    if (model.editor) {
      change(model.editor, $(id).value);
      edited();
    }
  });
editorField("editor-count", (editor, value) => editor.selected !== null && E.setCount(editor, editor.selected, value));
editorField("editor-kazan-white", (editor, value) => E.setKazan(editor, "white", value));
editorField("editor-kazan-black", (editor, value) => E.setKazan(editor, "black", value));
editorField("editor-tfen", (editor, value) => E.typeTfen(editor, value));
// The TFEN field, left: written again from the board.
on("editor-tfen", "change", update);
for (const radio of document.querySelectorAll("input[name=editor-side]")) {
  radio.addEventListener("change", () => {
    if (model.editor && radio.checked) E.setSide(model.editor, radio.value);
    edited();
  });
}
on("editor-start", "click", () => {
  if (model.editor) E.startPosition(model.editor);
  edited();
});
on("editor-empty", "click", () => {
  if (model.editor) E.emptyBoard(model.editor);
  edited();
});
on("editor-play", "click", () => {
  const editor = model.editor;
  if (!editor || !E.legal(editor) || !model.server) return;
  editor.playing = { line: model.server.line };
  send({ cmd: "setup", tfen: E.editorTfen(editor) });
});
on("editor-save", "click", () => {
  const editor = model.editor;
  if (!editor || !E.legal(editor)) return;
  editorSaving = $("editor-study-name").value.trim();
  send({ study: "save_position", tfen: E.editorTfen(editor), name: $("editor-study-name").value, comment: "" });
});
on("copy-tfen", "click", () => copy(model.shown?.tfen ?? ""));
on("open-record", "change", (event) => {
  const file = event.target.files[0];
  event.target.value = "";
  if (!file) return;
  const limit = CONFIG.limits.upload_bytes;
  if (file.size > limit) {
    S.acted(model);
    model.message = { kind: "error", text: { key: "err_too_large", params: { bytes: file.size, limit } } };
    update();
    return;
  }
  file.text().then((text) => send({ cmd: "open", record: text }));
});
on("save-record", "click", () => {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([model.server?.record ?? ""], { type: "text/plain" }));
  link.download = "tuzdyk-game.pgn";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
});

function copy(text) {
  const done = () => {
    S.acted(model);
    model.message = { kind: "notice", text: { key: "copied" } };
    update();
  };
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, () => {});
}

// ---- the new game dialog ----

function openNewGame() {
  const dialog = $("new-game-dialog");
  const settings = model.server?.settings;
  const mode = settings?.mode ?? "engine";
  dialog.querySelector(`input[name=mode][value=${mode}]`).checked = true;
  $("side").value = S.prefs.get("side", settings?.human ?? "white");
  $("strength").value = S.prefs.get("strength", "level:1");
  if (!$("strength").value) $("strength").value = "level:1";
  syncNewGame();
  dialog.showModal();
}

function syncNewGame() {
  const mode = $("new-game-form").querySelector("input[name=mode]:checked")?.value;
  $("side-field").hidden = mode !== "engine";
  $("strength-field").hidden = mode === "humans";
}

on("new-game", "click", openNewGame);
on("ending-new", "click", openNewGame);
on("new-game-form", "change", syncNewGame);
on("new-game-cancel", "click", () => $("new-game-dialog").close());
on("new-game-form", "submit", () => {
  const mode = $("new-game-form").querySelector("input[name=mode]:checked").value;
  const [kind, value] = $("strength").value.split(":");
  S.prefs.set("strength", $("strength").value);
  S.prefs.set("side", $("side").value);
  send({
    cmd: "new",
    settings: {
      mode,
      human: $("side").value,
      level: kind === "level" ? value : String(CONFIG.full_strength),
      movetime_ms: kind === "time" ? Number(value) : null,
    },
  });
});

// ---- settings ----

on("open-settings", "click", () => {
  $("animation").value = model.animation;
  $("sound").checked = model.sound;
  $("preview-toggle").checked = model.shown ? S.previewOn(model.shown) : true;
  $("preview-toggle").disabled = !model.shown;
  $("settings-dialog").showModal();
});
on("animation", "change", () => {
  model.animation = $("animation").value;
  S.prefs.set("animation", model.animation);
});
on("sound", "change", () => {
  model.sound = $("sound").checked;
  S.prefs.set("sound", model.sound ? "1" : "0");
  sound.setEnabled(model.sound);
  sound.stone();
});
on("preview-toggle", "change", () => {
  if (model.shown) S.prefs.set("preview." + S.previewKey(model.shown), $("preview-toggle").checked ? "1" : "0");
  update();
});

// ---- language and pages ----

function translatePage() {
  document.documentElement.lang = language();
  document.title = t("title");
  translateTree(document);
  const select = $("language");
  select.replaceChildren(...Object.entries(TABLES).map(([code, table]) => new Option(table.lang_name, code)));
  select.value = language();
  const strength = $("strength");
  const chosen = strength.value;
  strength.replaceChildren(...strengthOptions());
  strength.value = chosen || "level:1";
  $("level-note").textContent = t("level_note", { max: CONFIG.levels.length });
  if (resignArmed === null) $("resign").textContent = t("resign");
  if (model.page === "rules") renderRules($("rules-page"));
  puzzles.translate();
  invalidate();
  update();
}

on("language", "change", () => {
  model.language = setLanguage($("language").value);
  S.prefs.set("language", model.language);
  translatePage();
});

function showPage() {
  model.page = { "#rules": "rules", "#puzzles": "puzzles" }[location.hash] ?? "play";
  $("play-page").hidden = model.page !== "play";
  $("rules-page").hidden = model.page !== "rules";
  $("puzzles-page").hidden = model.page !== "puzzles";
  if (model.page === "rules") renderRules($("rules-page"));
  if (model.page === "puzzles" && model.connection === "connected") puzzles.show();
  puzzles.update();
  update();
}
window.addEventListener("hashchange", showPage);

translatePage();
showPage();
connection.connect();
