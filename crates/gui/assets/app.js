// The page: one WebSocket to the server, which keeps the game and computes
// everything about the rules; this script sends commands and draws states.

import { Board } from "./board.js";
import { FULL_STRENGTH, LEVELS } from "./levels.js";
import { TEXTS } from "./texts.js";

const $ = (id) => document.getElementById(id);
const ANIMATION_MS = { off: 0, fast: 50, normal: 130, slow: 300 };
const PER_MOVE_MS = [500, 1000, 3000, 10000];
const MAX_UPLOAD = 256 * 1024;

const store = {
  get: (key, fallback) => localStorage.getItem("tuzdyk." + key) ?? fallback,
  set: (key, value) => localStorage.setItem("tuzdyk." + key, value),
};

let language = store.get("language", "en");
let state = null;
let socket = null;
let retryMs = 250;
let flipped = store.get("flipped", "0") === "1";
let previewHole = null;
let animationToken = 0;
let drawing = Promise.resolve();
// The move already being animated on the page before the server's answer.
let optimistic = null;
// The position of the last state queued for drawing.
let queued = { line: -1, ply: -1 };

function t(key, params = {}) {
  const text = TEXTS[language]?.[key] ?? TEXTS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}

const sideName = (side) => t(side);

function scoreText(score, forSide = "white") {
  if (!score) return t("eval_none");
  if (score.mate !== undefined && score.mate !== null) {
    const winner = score.white > 0 ? "white" : "black";
    return t("mate_for", { side: sideName(winner), n: Math.abs(score.mate) });
  }
  const white = score.white_cp / 100;
  const value = forSide === "white" ? white : -white;
  return (value >= 0 ? "+" : "") + value.toFixed(1);
}

// ---- connection ----------------------------------------------------------

function connect() {
  const game = store.get("game", "");
  const url = `ws://${location.host}/ws${game ? "?game=" + encodeURIComponent(game) : ""}`;
  socket = new WebSocket(url);
  setStatus("connecting");
  socket.addEventListener("open", () => {
    retryMs = 250;
    setStatus("connected");
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    setStatus("reconnecting");
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 4000);
  });
}

function setStatus(key) {
  const status = $("status");
  status.dataset.t = key;
  status.textContent = t(key);
  document.body.dataset.connected = key === "connected" ? "1" : "0";
}

function send(command) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(command));
}

function receive(message) {
  switch (message.type) {
    case "state":
      store.set("game", message.game);
      state = message;
      queueDraw(message);
      break;
    case "lines":
      if (state && message.ply === state.ply) {
        state.lines = message.lines;
        state.evaluation = message.evaluation;
        drawAnalysis();
      }
      break;
    case "error":
      showMessage(errorText(message), "error");
      if (optimistic) {
        optimistic = null;
        animationToken++;
        if (state) queueDraw(state);
      }
      break;
    case "notice":
      showMessage(t("notice_" + message.code, { message: message.message }), "notice");
      break;
  }
}

function errorText(error) {
  const key = "err_" + error.code;
  const detail = error.message.replace(/^(invalid TFEN|invalid game record): /, "");
  return TEXTS.en[key] ? t(key, { hole: error.hole, message: detail }) : error.message;
}

function showMessage(text, kind) {
  const box = $("message");
  box.textContent = text;
  box.dataset.kind = kind;
}

// ---- drawing -------------------------------------------------------------

// States are drawn in order; a move that follows the state before it is
// sown stone by stone first, unless the page already did so on the click.
// A state of the same position (the engine starts thinking, say) lets a
// running animation finish; a jump elsewhere cuts it short.
function queueDraw(next) {
  const same = next.line === queued.line && next.ply === queued.ply;
  const follows = next.line === queued.line && next.ply === queued.ply + 1 && next.last;
  queued = { line: next.line, ply: next.ply };
  const mine = optimistic && optimistic.line === next.line && optimistic.ply === next.ply;
  const stoneMs = ANIMATION_MS[$("animation").value] ?? 0;
  if (!same && (!follows || stoneMs === 0)) animationToken++;
  const token = animationToken;
  drawing = drawing.then(async () => {
    if (follows && !mine && stoneMs > 0 && token === animationToken) {
      await board.animate(next.last, stoneMs, () => token === animationToken);
    }
    if (mine) {
      await optimistic.done;
      optimistic = null;
    }
    if (next === state) draw();
  });
}

function bottomSide() {
  const viewer = state?.settings.mode === "engine" ? state.settings.human : "white";
  const other = viewer === "white" ? "black" : "white";
  return flipped ? other : viewer;
}

function labels() {
  const result = {};
  for (const side of ["white", "black"]) {
    let who = "";
    if (state.settings.mode === "engine") who = side === state.settings.human ? t("you") : t("engine");
    else if (state.settings.mode === "engines") who = t("engine");
    result[side] = `${sideName(side)}${who ? " (" + who + ")" : ""}: ${t("kazan")}`;
  }
  return result;
}

function draw() {
  if (!state) return;
  board.orient(bottomSide());
  board.draw(state.board, labels(), (owner) => t("tuzdik_of", { side: sideName(owner) }));
  const playable = state.playable ? state.previews.map((p) => p.origin) : [];
  board.mark("playable", playable);
  const last = state.last;
  board.mark("last-from", last ? [last.origin] : []);
  board.mark("last-to", last ? [last.landing] : []);
  board.mark("hint", state.hint && state.playable ? [previewFor(state.hint.hole)?.origin] : []);
  drawPreview();
  drawTurn();
  drawControls();
  drawAnalysis();
  drawMoves();
  drawReview();
  drawEnding();
  const body = document.body.dataset;
  Object.assign(body, {
    ply: state.ply,
    plies: state.plies,
    over: state.ending ? "1" : "0",
    playable: state.playable ? "1" : "0",
    thinking: state.thinking ? "1" : "0",
    version: state.version,
  });
}

function previewFor(hole) {
  return state?.previews.find((p) => p.hole === hole);
}

function previewOn() {
  return $("preview-toggle").checked;
}

function drawPreview() {
  const preview = previewHole === null ? null : state?.previews.find((p) => p.origin === previewHole);
  const shown = preview && previewOn() && state.playable ? preview : null;
  board.mark("landing", shown ? [shown.landing] : []);
  board.mark("path", shown ? shown.path.filter((s) => s < 18) : []);
  const hole = shown ? board.hole(shown.landing) : null;
  board.holes.forEach((h) => (h.dataset.effect = ""));
  if (hole) hole.dataset.effect = shown.captured ? "capture" : shown.tuzdik ? "tuzdik" : shown.refused ? "refused" : "none";
  $("preview-text").textContent = shown ? previewText(shown) : "";
}

function previewText(p) {
  const mover = state.board.to_move;
  const whose = p.landing_side === mover ? t("own") : t("opponents");
  let text = t("pv_lands", { hole: p.hole, sown: p.sown, whose, landing: p.landing_number, found: p.found }) + " ";
  if (p.tuzdik) text += t("pv_tuzdik");
  else if (p.captured) text += t("pv_capture", { n: p.captured });
  else if (p.into_tuzdik) text += t("pv_into_tuzdik");
  else if (p.refused) text += t("pv_refused_" + p.refused);
  else if (p.landing_side === mover) text += t("pv_own_side");
  else text += t("pv_odd");
  return text;
}

function drawTurn() {
  const turn = $("turn");
  const to = state.board.to_move;
  let text;
  if (state.viewing) text = t("viewing", { ply: state.ply, plies: state.plies });
  else if (state.ending) text = "";
  else if (state.thinking) text = t("thinking");
  else if (state.paused) text = t("paused");
  else if (state.settings.mode === "engine" && to === state.settings.human) text = t("to_move_you", { side: sideName(to) });
  else text = t("to_move", { side: sideName(to) });
  const last = state.last;
  if (last) {
    let about = t("last_move", {
      side: sideName(last.mover),
      hole: last.hole,
      whose: last.landing_side === last.mover ? t("own") : t("opponents"),
      landing: last.landing_number,
    });
    if (last.tuzdik) about += t("last_tuzdik");
    else if (last.captured) about += t("last_capture", { n: last.captured });
    text = text ? `${text}. ${about}` : about;
  }
  turn.textContent = text;
  $("viewing").hidden = !state.viewing;
}

function drawControls() {
  const settings = state.settings;
  const key = JSON.stringify(settings);
  if ($("new-game").dataset.settings !== key) {
    $("new-game").dataset.settings = key;
    $("mode").value = settings.mode;
    $("human").value = settings.human;
    $("strength").value = settings.movetime_ms ? "time:" + settings.movetime_ms : "level:" + settings.level;
    const fullStrength = settings.movetime_ms || settings.level === FULL_STRENGTH;
    const choice = store.get("preview." + key, null);
    $("preview-toggle").checked = choice === null ? !fullStrength : choice === "1";
  }
  $("human-field").hidden = $("mode").value !== "engine";
  $("pause").hidden = !state.engines_mode;
  $("pause").textContent = state.paused ? t("resume") : t("pause");
  $("resume").hidden = !state.engine.failed;
  $("hint").disabled = !!state.ending || state.viewing;
  $("resign").disabled = !!state.ending;
  $("undo").disabled = state.plies === 0;
  const tfen = $("tfen");
  if (document.activeElement !== tfen) tfen.value = state.tfen;
  $("engine-name").textContent = state.engine.name ?? "";
  const hint = state.hint;
  $("hint-text").textContent = hint
    ? t("hint_text", { hole: hint.hole, score: scoreText(hint.score, state.board.to_move), pv: hint.pv.join(" ") })
    : "";
}

function drawAnalysis() {
  if (!state) return;
  $("analysis-toggle").checked = state.analysis;
  const list = $("lines");
  list.replaceChildren(
    ...state.lines.map((line) => {
      const item = document.createElement("li");
      item.textContent = `${t("depth")} ${line.depth ?? "?"}  ${scoreText(line.score)}  ${line.pv.join(" ")}`;
      return item;
    }),
  );
  const evaluation = state.evaluation;
  const white = evaluation ? evaluation.white : 0;
  const share = 50 + 50 * Math.tanh(white / 1000);
  $("eval-fill").style.height = `${share}%`;
  $("eval-text").textContent = evaluation ? scoreText(evaluation) : "";
}

function markOf(ply) {
  return state.review?.moves.find((m) => m.ply === ply)?.mark;
}

function drawMoves() {
  const list = $("move-list");
  const items = state.moves.map((move, i) => {
    const item = document.createElement("button");
    item.type = "button";
    item.className = "move";
    const number = move.mover === "white" ? `${move.number}. ` : "";
    const mark = markOf(i);
    item.textContent = number + move.token + (mark ? { inaccuracy: "?!", mistake: "?", blunder: "??" }[mark] : "");
    item.dataset.ply = i + 1;
    item.classList.toggle("current", i + 1 === state.ply);
    if (mark) item.classList.add(mark);
    item.addEventListener("pointerdown", () => send({ cmd: "view", ply: i + 1 }));
    return item;
  });
  const start = document.createElement("button");
  start.type = "button";
  start.className = "move";
  start.textContent = "0";
  start.classList.toggle("current", state.ply === 0);
  start.addEventListener("pointerdown", () => send({ cmd: "view", ply: 0 }));
  list.replaceChildren(start, ...items);
}

function drawReview() {
  const review = state.review;
  $("review-status").textContent = review
    ? review.done
      ? t("reviewed", { total: review.total })
      : t("reviewing", { done: review.moves.length, total: review.total })
    : "";
  const summary = $("review-summary");
  summary.replaceChildren();
  if (review && review.done) {
    ["white", "black"].forEach((side, i) => {
      const s = review.summary[i];
      const line = document.createElement("div");
      line.textContent = t("accuracy", {
        side: sideName(side),
        accuracy: s.accuracy,
        loss: s.average_loss,
        i: s.marks[0],
        m: s.marks[1],
        b: s.marks[2],
      });
      summary.append(line);
    });
    if (review.rejected) summary.append(document.createTextNode(review.rejected));
  }
  drawGraph(review);
}

function drawGraph(review) {
  const svg = $("graph");
  svg.replaceChildren();
  svg.hidden = !review || review.moves.length === 0;
  if (svg.hidden) return;
  const NS = "http://www.w3.org/2000/svg";
  const width = 300;
  const height = 100;
  const total = Math.max(review.total, 1);
  const x = (ply) => (ply / total) * width;
  const y = (white) => height / 2 - (Math.max(-2000, Math.min(2000, white)) / 2000) * (height / 2);
  const points = [[0, height / 2]].concat(review.moves.map((m) => [x(m.ply + 1), y(m.after?.white ?? 0)]));
  const axis = document.createElementNS(NS, "line");
  Object.entries({ x1: 0, y1: height / 2, x2: width, y2: height / 2, class: "axis" }).forEach(([k, v]) => axis.setAttribute(k, v));
  const line = document.createElementNS(NS, "polyline");
  line.setAttribute("points", points.map((p) => p.join(",")).join(" "));
  line.setAttribute("class", "score");
  svg.append(axis, line);
  for (const m of review.moves) {
    if (!m.mark) continue;
    const dot = document.createElementNS(NS, "circle");
    Object.entries({ cx: x(m.ply + 1), cy: y(m.after?.white ?? 0), r: 3, class: m.mark }).forEach(([k, v]) => dot.setAttribute(k, v));
    svg.append(dot);
  }
  const cursor = document.createElementNS(NS, "line");
  Object.entries({ x1: x(state.ply), y1: 0, x2: x(state.ply), y2: height, class: "cursor" }).forEach(([k, v]) => cursor.setAttribute(k, v));
  svg.append(cursor);
}

function drawEnding() {
  const ending = state.ending;
  $("ending").hidden = !ending;
  $("record-box").hidden = !ending;
  if (!ending) return;
  const result = ending.winner
    ? t("result_win", { result: ending.result, side: sideName(ending.winner) })
    : t("result_draw", { result: ending.result });
  const reason =
    ending.reason === "resigned" ? t("end_resigned", { side: sideName(ending.resigned) }) : t("end_" + ending.reason);
  const count = t("final_count", { white: ending.count[0], black: ending.count[1] });
  $("ending-text").textContent = `${result} (${reason}). ${count}.`;
  $("record").textContent = state.record;
}

function translatePage() {
  document.documentElement.lang = language;
  document.title = t("title");
  document.querySelectorAll("[data-t]").forEach((el) => (el.textContent = t(el.dataset.t)));
  document.querySelectorAll("[data-t-title]").forEach((el) => (el.title = t(el.dataset.tTitle)));
  const strength = $("strength");
  const chosen = strength.value;
  strength.replaceChildren(
    ...LEVELS.map(({ name, elo }) => new Option(t("level_option", { name: t("level_" + name), elo }), "level:" + name)),
    ...PER_MOVE_MS.map((ms) => new Option(t("per_move", { seconds: ms / 1000 }), "time:" + ms)),
  );
  strength.value = chosen || store.get("strength", "level:beginner");
  $("language").value = language;
  document.body.dataset.lang = language;
  draw();
}

// ---- input ---------------------------------------------------------------

function play(index) {
  if (!state || !state.playable) return;
  const preview = state.previews.find((p) => p.origin === index);
  if (!preview) {
    send({ cmd: "play", hole: (index % 9) + 1 });
    return;
  }
  previewHole = null;
  drawPreview();
  send({ cmd: "play", hole: preview.hole });
  const stoneMs = ANIMATION_MS[$("animation").value] ?? 0;
  if (stoneMs > 0 && !state.viewing) {
    animationToken++;
    const token = animationToken;
    const move = { ...preview, before: state.board };
    optimistic = { line: state.line, ply: state.ply + 1, done: board.animate(move, stoneMs, () => token === animationToken) };
  }
}

function preview(index) {
  previewHole = index;
  if (state) drawPreview();
}

function newGame() {
  store.set("strength", $("strength").value);
  const [kind, value] = $("strength").value.split(":");
  send({
    cmd: "new",
    settings: {
      mode: $("mode").value,
      human: $("human").value,
      level: kind === "level" ? value : FULL_STRENGTH,
      movetime_ms: kind === "time" ? Number(value) : null,
    },
  });
}

function openRecord(file) {
  if (file.size > MAX_UPLOAD) {
    showMessage(t("err_too_large", { message: `${file.size} > ${MAX_UPLOAD}` }), "error");
    return;
  }
  file.text().then((text) => send({ cmd: "open", record: text }));
}

function saveRecord() {
  const blob = new Blob([state.record], { type: "text/plain" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "tuzdyk-game.pgn";
  link.click();
  URL.revokeObjectURL(link.href);
}

function copyTfen() {
  const tfen = $("tfen");
  tfen.value = state.tfen;
  tfen.select();
  const done = () => showMessage(t("copied"), "notice");
  if (navigator.clipboard) navigator.clipboard.writeText(state.tfen).then(done, () => document.execCommand("copy") && done());
  else if (document.execCommand("copy")) done();
}

function bind() {
  const on = (id, event, handler) => $(id).addEventListener(event, handler);
  const command = (id, cmd) => on(id, "click", () => send({ cmd }));
  on("new-game", "click", newGame);
  command("undo", "undo");
  command("resign", "resign");
  command("hint", "hint");
  command("resume", "resume");
  command("review-button", "review");
  command("continue-here", "continue_here");
  on("pause", "click", () => send({ cmd: state?.paused ? "resume" : "pause" }));
  on("back-to-game", "click", () => send({ cmd: "view", ply: null }));
  on("flip", "click", () => {
    flipped = !flipped;
    store.set("flipped", flipped ? "1" : "0");
    draw();
  });
  on("mode", "change", () => ($("human-field").hidden = $("mode").value !== "engine"));
  on("preview-toggle", "change", () => {
    if (state) store.set("preview." + JSON.stringify(state.settings), $("preview-toggle").checked ? "1" : "0");
    drawPreview();
  });
  on("animation", "change", () => store.set("animation", $("animation").value));
  on("analysis-toggle", "change", () => send({ cmd: "analysis", on: $("analysis-toggle").checked }));
  on("set-up", "click", () => send({ cmd: "setup", tfen: $("tfen").value }));
  on("copy-tfen", "click", copyTfen);
  on("open-record", "change", (event) => {
    const file = event.target.files[0];
    if (file) openRecord(file);
    event.target.value = "";
  });
  on("save-record", "click", saveRecord);
  on("language", "change", () => {
    language = $("language").value;
    store.set("language", language);
    translatePage();
  });
  on("graph", "pointerdown", (event) => {
    if (!state?.review) return;
    const box = $("graph").getBoundingClientRect();
    const ply = Math.round(((event.clientX - box.left) / box.width) * Math.max(state.review.total, 1));
    send({ cmd: "view", ply: Math.max(0, Math.min(state.plies, ply)) });
  });
  $("animation").value = store.get("animation", "normal");
}

const board = new Board($("board"), { play, preview });
bind();
translatePage();
connect();
