// The position editor's state and its transitions: a board being set up
// (stones per hole, the kazans, each player's tuzdik, the side to move),
// the tool a click uses, the hole selected, and the server's last word on
// whether the position is legal. Its TFEN is written and read here as
// text only (rows, tokens, fields): whether the position is one the rules
// accept is always the server's answer (`check_position`), never decided
// here. Rendering is render.js's (`renderEditor`), events app.js's and
// input.js's.

import { SIDES } from "./board.js";

export const TOTAL = 162;
export const TOOLS = ["add", "remove", "tuzdik"];
const START = { holes: new Array(18).fill(9), kazans: [0, 0], tuzdiks: [null, null], to_move: "white", fullmove: 1 };

// The editor opened on `board` (a Board as the server sends it).
export function openEditor(model, board) {
  model.editor = {
    holes: board.holes.slice(),
    kazans: board.kazans.slice(),
    tuzdiks: board.tuzdiks.slice(),
    to_move: board.to_move,
    fullmove: board.fullmove,
    tool: "add",
    selected: null,
    // A TFEN typed that the board cannot show (the server says why).
    typed: null,
    // The last question sent and the last answer.
    asked: null,
    check: null,
    // Set up with `setup`, waiting for the new game; saved as a study.
    playing: null,
    explain: null,
    saved: null,
  };
}

export function closeEditor(model) {
  model.editor = null;
}

// The board as BoardView draws it.
export function editorBoard(editor) {
  const { holes, kazans, tuzdiks, to_move, fullmove } = editor;
  return { holes, kazans, tuzdiks, to_move, fullmove };
}

export function total(editor) {
  return editor.holes.reduce((a, b) => a + b, 0) + editor.kazans[0] + editor.kazans[1];
}

// The player owning a tuzdik on hole `index` (one of the other row).
export function tuzdikOwner(editor, index) {
  const owner = editor.tuzdiks.indexOf(index);
  return owner >= 0 ? SIDES[owner] : null;
}

function edited(editor) {
  editor.typed = null;
  editor.explain = null;
  editor.saved = null;
}

const clamp = (n) => Math.max(0, Math.min(TOTAL, Math.trunc(Number(n) || 0)));

export function select(editor, index) {
  editor.selected = index;
}

export function setTool(editor, tool) {
  if (TOOLS.includes(tool)) editor.tool = tool;
}

// One stone more in hole `index`; a tuzdik holds none (the reason, else null).
export function addStone(editor, index) {
  editor.selected = index;
  if (tuzdikOwner(editor, index)) return "editor_explain_tuzdik";
  editor.holes[index] = clamp(editor.holes[index] + 1);
  edited(editor);
  return null;
}

export function removeStone(editor, index) {
  editor.selected = index;
  if (tuzdikOwner(editor, index)) return "editor_explain_tuzdik";
  if (editor.holes[index] === 0) return "editor_explain_empty";
  editor.holes[index] -= 1;
  edited(editor);
  return null;
}

// The selected hole's count, as typed.
export function setCount(editor, index, count) {
  if (tuzdikOwner(editor, index)) return;
  editor.holes[index] = clamp(count);
  edited(editor);
}

// Hole `index` made the tuzdik of the other row's player (its stones go to
// that player's kazan, as when a tuzdik is made), or made a hole again.
// Each player has one tuzdik on the board at most: making another moves it.
export function toggleTuzdik(editor, index) {
  editor.selected = index;
  const owner = 1 - Math.floor(index / 9);
  if (editor.tuzdiks[owner] === index) editor.tuzdiks[owner] = null;
  else {
    editor.kazans[owner] = clamp(editor.kazans[owner] + editor.holes[index]);
    editor.holes[index] = 0;
    editor.tuzdiks[owner] = index;
  }
  edited(editor);
}

// Applies the tool (or its opposite, `remove`) to hole `index`; the reason
// nothing changed, else null.
export function useTool(editor, index, remove = false) {
  if (remove) return removeStone(editor, index);
  if (editor.tool === "tuzdik") {
    toggleTuzdik(editor, index);
    return null;
  }
  return editor.tool === "remove" ? removeStone(editor, index) : addStone(editor, index);
}

export function setKazan(editor, side, count) {
  editor.kazans[SIDES.indexOf(side)] = clamp(count);
  edited(editor);
}

export function setSide(editor, side) {
  if (SIDES.includes(side)) editor.to_move = side;
  edited(editor);
}

export function startPosition(editor) {
  Object.assign(editor, structuredClone(START));
  edited(editor);
}

// Every stone to the kazan of the player on whose side it lies, no tuzdiks.
export function emptyBoard(editor) {
  editor.holes.forEach((count, index) => (editor.kazans[Math.floor(index / 9)] += count));
  editor.holes.fill(0);
  editor.tuzdiks = [null, null];
  edited(editor);
}

// A TFEN typed: the board follows when the text can be read as one;
// otherwise it stays, and the server's check says what is wrong.
export function typeTfen(editor, text) {
  const read = readTfen(text);
  if (read) Object.assign(editor, read);
  editor.explain = null;
  editor.saved = null;
  editor.typed = read ? null : text;
}

// The TFEN the editor stands for: the one typed that it cannot show, or
// its board's.
export function editorTfen(editor) {
  return editor.typed ?? writeTfen(editor);
}

// The TFEN to ask the server about, if it has not been asked yet.
export function checkQuestion(editor) {
  const tfen = editorTfen(editor);
  return tfen === editor.asked ? null : tfen;
}

export function asked(editor, tfen) {
  editor.asked = tfen;
}

export function receiveCheck(editor, message) {
  editor.check = message;
}

// The server's answer for the position as it is now (null: not yet).
export function currentCheck(editor) {
  const check = editor.check;
  return check && check.tfen === editorTfen(editor) ? check : null;
}

export function legal(editor) {
  return !!currentCheck(editor)?.ok;
}

// ---- TFEN as text ----

// Black's row from hole 9 down to 1, then White's 1 to 9; a tuzdik is
// written `t` in the row of the hole it took; runs of empty holes as one
// digit.
export function writeTfen(editor) {
  const cell = (index) => (editor.tuzdiks.includes(index) ? "t" : editor.holes[index]);
  const row = (indices) => {
    const tokens = [];
    let run = 0;
    for (const index of indices) {
      const value = cell(index);
      if (value === 0) {
        run += 1;
        continue;
      }
      if (run) tokens.push(String(run));
      run = 0;
      tokens.push(value === "t" ? "t" : value + "S");
    }
    if (run) tokens.push(String(run));
    return tokens.join(",");
  };
  const north = row([17, 16, 15, 14, 13, 12, 11, 10, 9]);
  const south = row([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  return `${north}/${south} ${editor.kazans[0]} ${editor.kazans[1]} ${editor.to_move === "white" ? "S" : "N"} ${editor.fullmove}`;
}

// The parts of a TFEN as written (lenient as the server reads: lower case,
// split runs, no move number), or null when the text cannot be shown on a
// board: its problem is then the server's to tell.
export function readTfen(text) {
  const fields = String(text).trim().split(/\s+/);
  if (fields.length < 4 || fields.length > 5) return null;
  const rows = fields[0].split("/");
  if (rows.length !== 2) return null;
  const north = readRow(rows[0]);
  const south = readRow(rows[1]);
  if (!north || !south) return null;
  const holes = new Array(18).fill(0);
  const tuzdiks = [null, null];
  for (let i = 0; i < 9; i++) {
    const white = south[i];
    const black = north[8 - i];
    if (white === "t") tuzdiks[1] = i;
    else holes[i] = white;
    if (black === "t") tuzdiks[0] = 9 + i;
    else holes[9 + i] = black;
  }
  const number = (token, min) => (/^\d{1,3}$/.test(token) && Number(token) >= min && Number(token) <= TOTAL ? Number(token) : null);
  const kazans = [number(fields[1], 0), number(fields[2], 0)];
  const side = { s: "white", n: "black" }[fields[3].toLowerCase()];
  const fullmove = fields.length === 5 ? (/^\d{1,5}$/.test(fields[4]) && Number(fields[4]) >= 1 && Number(fields[4]) <= 65535 ? Number(fields[4]) : null) : 1;
  if (kazans.includes(null) || !side || fullmove === null) return null;
  return { holes, kazans, tuzdiks, to_move: side, fullmove };
}

// Nine cells: counts, or "t"; null when it is not nine readable holes or
// has two tuzdiks.
function readRow(row) {
  const cells = [];
  for (const token of row.split(",")) {
    if (token === "t" || token === "T") {
      if (cells.includes("t")) return null;
      cells.push("t");
    } else if (/^\d{1,3}[sS]$/.test(token) && Number(token.slice(0, -1)) >= 1 && Number(token.slice(0, -1)) <= TOTAL) {
      cells.push(Number(token.slice(0, -1)));
    } else if (/^[1-9]$/.test(token)) {
      for (let k = 0; k < Number(token); k++) cells.push(0);
    } else return null;
    if (cells.length > 9) return null;
  }
  return cells.length === 9 ? cells : null;
}
