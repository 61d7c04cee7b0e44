// The page's state and its transitions. Events (the server's messages, a
// person's input) call a transition; a transition changes the model and
// nothing else; the app then renders from the model. The game itself is
// the server's: `server` is its last state, `shown` the one on the board
// (behind `server` while a move is being sown).

import { CONFIG } from "./config.js";

const STORE = "tuzdyk.";

export const prefs = {
  get(key, fallback) {
    try {
      return localStorage.getItem(STORE + key) ?? fallback;
    } catch {
      return fallback;
    }
  },
  set(key, value) {
    try {
      localStorage.setItem(STORE + key, value);
    } catch {
      // Private windows may refuse storage: the choice lasts the page.
    }
  },
};

export function createModel(language) {
  return {
    language,
    connection: "connecting",
    server: null,
    shown: null,
    // A hole pressed (pointer down on it), hovered (mouse) or focused
    // (keyboard); the first of them has its preview shown.
    pressed: null,
    hover: null,
    focus: null,
    // An error or notice, until the next action; an explanation of a click
    // that could not play, until the next one.
    message: null,
    explain: null,
    // An engine line shown on the board: {view, step, lineIndex, ply}.
    lineView: null,
    hintAsked: false,
    page: location.hash === "#rules" ? "rules" : "play",
    flipped: prefs.get("flipped", "0") === "1",
    animation: prefs.get("animation", "normal"),
    sound: prefs.get("sound", "0") === "1",
    // The player's own move, sent: until its state comes back.
    sent: null,
    // The position asked for with the arrow keys, until it is shown.
    viewAsked: null,
    // The opening explorer: open or not, the position last asked about
    // (TFEN), and the last answer (for its own `tfen`).
    explorerOpen: prefs.get("explorer", "1") === "1",
    explorerAsked: null,
    explorer: null,
    // The saved studies and the stored mistakes, as last listed (null:
    // not asked yet).
    studies: null,
    mistakes: null,
    // The position editor, while it is open (editor.js).
    editor: null,
  };
}

// ---- what the server says ----

export function receiveState(model, state, firstAfterConnect) {
  const before = model.server;
  model.server = state;
  if (firstAfterConnect) model.message = null;
  if (before && (before.line !== state.line || before.ply !== state.ply)) {
    model.lineView = null;
    model.explain = null;
  }
  if (state.hint || (before && before.plies !== state.plies)) model.hintAsked = false;
  if (model.sent && (state.plies > model.sent.plies || state.line !== model.sent.line)) model.sent = null;
  if (model.viewAsked !== null && (state.ply === model.viewAsked || (before && state.line !== before.line))) model.viewAsked = null;
}

export function receiveLines(model, message) {
  if (!model.server || message.ply !== model.server.ply) return;
  model.server = { ...model.server, lines: message.lines, evaluation: message.evaluation };
  if (model.shown && model.shown.ply === message.ply && model.shown.line === model.server.line) {
    model.shown = { ...model.shown, lines: message.lines, evaluation: message.evaluation };
  }
}

export function receiveError(model, message) {
  model.message = { kind: "error", text: message.text };
  model.sent = null;
  model.viewAsked = null;
  model.hintAsked = false;
}

export function receiveNotice(model, message) {
  model.message = { kind: "notice", text: message.text };
}

export function receiveExplorer(model, message) {
  model.explorer = message;
}

// The explorer's question for the position shown, if it has not been
// asked yet (null when there is nothing to ask).
export function explorerQuestion(model) {
  const tfen = model.shown?.tfen;
  if (!model.explorerOpen || !tfen || tfen === model.explorerAsked) return null;
  return tfen;
}

export function askedExplorer(model, tfen) {
  model.explorerAsked = tfen;
}

export function setExplorerOpen(model, open) {
  model.explorerOpen = open;
  prefs.set("explorer", open ? "1" : "0");
  // Closed, it stops following; opened again, it asks afresh.
  if (!open) model.explorerAsked = null;
}

export function receiveStudies(model, message) {
  model.studies = message;
}

export function receiveMistakes(model, message) {
  model.mistakes = message;
}

// The exercise waiting for an answer, if any: "learn from your mistakes".
export function exercise(model) {
  const e = model.server?.learn?.exercise;
  return e && !e.solved && !e.revealed ? e : null;
}

// Whether the board on screen takes an answer to the exercise now: the
// exercise's position is drawn, and nothing is being sown or sent.
export function answering(model, sowing) {
  const shown = model.shown;
  const e = exercise(model);
  const latest = !!shown && !!model.server && shown.version === model.server.version;
  return !!e && latest && shown.ply === e.ply && !sowing && !model.sent && !model.lineView;
}

export function drawn(model, state) {
  model.shown = state;
}

// ---- what a person does ----

// Every new action clears the last error: it was about the one before.
export function acted(model) {
  model.message = null;
  model.explain = null;
}

export function explain(model, key, params = {}) {
  model.explain = { key, params };
}

export function setPointer(model, kind, index) {
  model[kind] = index;
}

export function openLine(model, view, lineIndex, step) {
  model.lineView = { view, lineIndex, step };
}

export function stepLine(model, delta) {
  const line = model.lineView;
  if (!line) return;
  line.step = Math.max(0, Math.min(line.view.steps.length - 1, line.step + delta));
}

export function closeLine(model) {
  model.lineView = null;
}

// ---- what follows from the model ----

export const FULL_STRENGTH = CONFIG.full_strength;

// The key under which the preview choice is kept: per strength, since a
// player may want help against the weak levels and none at full strength.
export function previewKey(state) {
  const s = state.settings;
  return s.mode === "humans" ? "humans" : s.movetime_ms ? "time" : "level" + s.level;
}

export function previewDefault(state) {
  const s = state.settings;
  return !(s.mode === "engine" && (s.movetime_ms || s.level >= FULL_STRENGTH));
}

export function previewOn(state) {
  const choice = prefs.get("preview." + previewKey(state), null);
  return choice === null ? previewDefault(state) : choice === "1";
}

// The side drawn at the bottom: the person's against the engine, else White.
export function bottomSide(model) {
  const state = model.server;
  const viewer = state?.settings.mode === "engine" ? state.settings.human : "white";
  const other = viewer === "white" ? "black" : "white";
  return model.flipped ? other : viewer;
}

// Whether the board on screen takes a move now: the state drawn is the
// latest, it is the person's turn, and nothing is being sown or sent.
export function accepting(model, sowing) {
  const shown = model.shown;
  const latest = !!shown && !!model.server && shown.version === model.server.version;
  return latest && shown.playable && !sowing && !model.sent && !model.lineView;
}

// The preview of the hole whose preview is to be shown, if any.
export function shownPreview(model, sowing) {
  const index = model.pressed ?? model.focus ?? model.hover;
  if (index === null || index === undefined || !accepting(model, sowing)) return null;
  if (!previewOn(model.shown)) return null;
  return model.shown.previews.find((p) => p.origin === index) ?? null;
}
