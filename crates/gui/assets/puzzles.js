// The puzzle page, as lichess's puzzles: the solver's rating, a theme to
// choose, and a puzzle board ("Find the best move for White") drawn with
// the play page's BoardView and Sower. The server keeps the puzzle and
// judges every move; the page sends holes and draws the positions it gets
// back, in order (a jump back to show the solution waits until the wrong
// move has been sown). Its state and transitions, its rendering and its
// events are here; app.js routes the page and the messages to it.
// The puzzle under way is remembered (prefs "puzzle"): a reload starts it
// again, as lichess does; the server rates only a puzzle's first try, so
// a reload never lets a puzzle count twice or a failed one as solved.

import { BoardView, SIDES } from "./board.js";
import { render as renderText, t } from "./i18n.js";
import { bindBoard, pointerIntents } from "./input.js";
import { Sower } from "./sowing.js";

const $ = (id) => document.getElementById(id);

export const THEMES = ["even_capture", "tuzdik", "into_tuzdik", "waiting_move", "only_defence", "endgame_sweep"];
// How long a wrong move's result stays before the board goes back to
// show the solution, in ms.
const JUMP_PAUSE = 700;

// ---- the state and its transitions ----

export function createPuzzleModel(theme) {
  return {
    theme: THEMES.includes(theme) ? theme : "any",
    solver: null,
    puzzle: null, // the last PuzzleBoardView, without its steps
    empty: null, // why there is none: a server text
    shown: null, // the step on the board
    queue: [], // steps received, not yet handed to the sower
    asked: 0, // requests without their answer yet
    message: null,
    explain: null,
    pressed: null,
    hover: null,
    focus: null,
    waiting: false, // a jump back waits for its pause
    stale: false, // the connection was lost: the server no longer has it
    reopening: false, // the puzzle under way before a reload, asked again
    analysing: false, // its position asked for on the play page
  };
}

export function receivePuzzle(model, view) {
  model.asked = Math.max(0, model.asked - 1);
  model.solver = view.solver;
  model.empty = view.empty;
  model.message = null;
  const fresh = !view.puzzle || !model.puzzle || view.puzzle.id !== model.puzzle.id || view.puzzle.steps.some((s) => s.ply === 0 && !s.last);
  if (view.puzzle) {
    const { steps, ...rest } = view.puzzle;
    model.puzzle = rest;
    if (fresh) model.queue = [];
    model.queue.push(...steps);
  } else {
    model.puzzle = null;
    model.queue = [];
  }
  return fresh;
}

export function receivePuzzleError(model, message) {
  model.asked = Math.max(0, model.asked - 1);
  model.message = message.text;
}

export function asked(model) {
  model.asked += 1;
  model.message = null;
  model.explain = null;
}

function playing(model) {
  return model.puzzle?.status === "playing";
}

// A hole can be played now: the puzzle goes on, nothing is on its way.
function accepting(model, busy) {
  return playing(model) && !busy && model.asked === 0 && model.queue.length === 0 && !!model.shown && model.shown.previews.length > 0;
}

// ---- rendering ----

function sideOf(model) {
  return model.puzzle?.side ?? "white";
}

function signed(change) {
  const n = Math.round(change);
  return (n > 0 ? "+" : n < 0 ? "−" : "±") + Math.abs(n);
}

function statusText(model, busy) {
  const puzzle = model.puzzle;
  if (!puzzle) return model.empty ? renderText(model.empty) : model.asked ? t("puzzle_loading") : "";
  const side = t(puzzle.side);
  if (puzzle.status === "solved") return t("puzzle_solved");
  if (puzzle.status === "failed") return puzzle.wrong ? t("puzzle_failed_wrong", { hole: puzzle.wrong }) : t("puzzle_failed_shown");
  if (model.shown && model.shown.ply > 0 && !busy) return t("puzzle_good", { side });
  return t("puzzle_find", { side });
}

export function renderPuzzles(model, board, busy, page) {
  const puzzle = model.puzzle;
  const shown = model.shown;
  const solver = model.solver;
  $("puzzle-rating").textContent = solver ? t("puzzle_rating", { rating: Math.round(solver.rating), deviation: Math.round(solver.deviation) }) : "";
  $("puzzle-status").textContent = statusText(model, busy);
  $("puzzle-status").dataset.status = puzzle?.status ?? "";
  $("puzzle-explain").textContent = model.explain ? t(model.explain.key, model.explain.params) : "";
  const hint = puzzle?.hint && playing(model) ? t("puzzle_hint_text", { hole: puzzle.hint }) : "";
  $("puzzle-hint-text").textContent = hint;
  $("puzzle-message").textContent = model.message ? renderText(model.message) : "";
  $("puzzle-message").dataset.kind = model.message ? "error" : "";
  const over = !!puzzle && !playing(model);
  let result = "";
  if (over && puzzle.change !== null && puzzle.change !== undefined) {
    result = t("puzzle_result", { rating: Math.round(puzzle.rating), change: signed(puzzle.change) });
  } else if (puzzle?.replay) {
    result = t("puzzle_replay");
  }
  $("puzzle-result").textContent = result;
  $("puzzle-result").dataset.change = over && puzzle.change !== null ? String(Math.round(puzzle.change)) : "";
  const info = puzzle
    ? t("puzzle_info", { moves: puzzle.solver_moves, themes: puzzle.themes.map((x) => t("theme_" + x)).join(", ") })
    : "";
  $("puzzle-info").textContent = info;
  $("puzzle-theme-note").textContent = t(model.theme === "any" ? "theme_any_note" : "theme_" + model.theme + "_note");
  $("puzzle-hint").disabled = !playing(model) || busy;
  $("puzzle-solution").disabled = !playing(model) || busy;
  $("puzzle-analyse").disabled = !puzzle || playing(model) || busy;
  $("puzzle-next").classList.toggle("primary", !playing(model));
  $("puzzle-board").hidden = !shown;
  if (shown) {
    const taking = accepting(model, busy);
    board.orient(sideOf(model));
    // The side to move lit while the puzzle goes on; nothing once it is over.
    board.light(playing(model) || busy ? shown.board.to_move : null);
    board.mark("playable", taking ? shown.previews.map((p) => p.origin) : []);
    board.mark("pressed", [model.pressed]);
    board.mark("hover", model.pressed === null ? [model.hover] : []);
    board.mark("focus", [model.focus]);
    const preview = taking ? shown.previews.find((p) => p.origin === (model.pressed ?? model.focus ?? model.hover)) : null;
    board.showPath(preview ?? null);
    const last = !preview && shown.last && !busy ? shown.last : null;
    board.mark("last-from", last ? [last.origin] : []);
    board.mark("last-to", last && last.landing < 18 ? [last.landing] : []);
    const hinted = puzzle?.hint && taking ? shown.previews.find((p) => p.hole === puzzle.hint)?.origin : null;
    board.mark("hint", [hinted]);
    board.setLabels((index) => {
      const side = SIDES[Math.floor(index / 9)];
      const owner = shown.board.tuzdiks.findIndex((x) => x === index);
      const what = owner >= 0 ? t("hole_tuzdik", { owner: t(SIDES[owner]) }) : t("hole_stones", { count: shown.board.holes[index] });
      return `${t("hole_side", { side: t(side), n: (index % 9) + 1 })}: ${what}`;
    });
  }
  Object.assign(document.body.dataset, {
    puzzle: puzzle?.status ?? (model.empty ? "empty" : ""),
    puzzleId: puzzle?.id ?? "",
    puzzlePly: shown?.ply ?? "",
    puzzleBusy: busy || model.queue.length || model.asked || model.waiting ? "1" : "0",
    puzzleRating: solver ? String(Math.round(solver.rating * 100) / 100) : "",
  });
  const nav = $("nav-puzzles");
  if (page === "puzzles") nav.setAttribute("aria-current", "page");
  else nav.removeAttribute("aria-current");
}

// ---- events ----

// The puzzle page: `send(message)` (false when not connected), `speed()`,
// `sound`, `prefs`, `analyse()` (shows the play page, where the server
// has set the puzzle's position up),
// `page()` (the page shown).
export function startPuzzles({ send, speed, sound, prefs, analyse, page }) {
  const model = createPuzzleModel(prefs.get("puzzle_theme", "any"));
  const board = new BoardView($("puzzle-board"));
  let pending = false;
  const update = () => {
    if (pending) return;
    pending = true;
    queueMicrotask(() => {
      pending = false;
      renderPuzzles(model, board, sower.busy, page());
    });
  };
  const sower = new Sower({
    board,
    speed,
    sound,
    draw: (step) => {
      model.shown = step;
      board.setPosition(step.board, step.previews.length === 0);
      update();
    },
    onError: (error) => console.error("tuzdyk: drawing the puzzle failed", error),
    onIdle: () => {
      feed();
      update();
    },
  });

  // Hands the steps received to the sower; a jump back waits until the
  // board is still, and a moment more for the person to see it.
  function feed() {
    while (model.queue.length && !model.waiting) {
      const next = model.queue[0];
      const latest = sower.latest;
      const jump = latest && (next.line !== latest.line || next.ply < latest.ply);
      if (jump) {
        if (sower.busy) return;
        model.waiting = true;
        setTimeout(() => {
          model.waiting = false;
          if (model.queue[0] === next) sower.push(model.queue.shift());
          feed();
          update();
        }, JUMP_PAUSE);
        return;
      }
      sower.push(model.queue.shift());
    }
  }

  function request(message) {
    asked(model);
    if (!send(message)) {
      model.asked -= 1;
      model.message = { key: "reconnecting" };
    }
    update();
  }

  const next = () => request({ study: "puzzle_next", theme: model.theme === "any" ? null : model.theme });

  function pressable(index) {
    const shown = model.shown;
    if (!shown || !model.puzzle) return "turn";
    if (!playing(model)) return "over";
    // The solver's row is the bottom one, whoever is being sown.
    if (SIDES[Math.floor(index / 9)] !== sideOf(model)) return "opponent_row";
    if (!accepting(model, sower.busy)) return "turn";
    if (shown.previews.some((p) => p.origin === index)) return true;
    return shown.board.tuzdiks.includes(index) ? "tuzdik" : "empty";
  }

  function refuse(index, reason) {
    const keys = {
      opponent_row: "explain_opponent_row",
      empty: "explain_empty_hole",
      tuzdik: "explain_tuzdik_hole",
      turn: "explain_not_your_turn",
      over: "puzzle_over_explain",
    };
    model.explain = { key: keys[reason] ?? "explain_not_your_turn", params: { hole: (index % 9) + 1 } };
    update();
  }

  function play(index) {
    const shown = model.shown;
    const preview = shown?.previews.find((p) => p.origin === index);
    if (!preview || !accepting(model, sower.busy)) return;
    model.pressed = null;
    model.hover = null;
    request({ study: "puzzle_move", id: model.puzzle.id, hole: preview.hole });
    if (model.asked) sower.own(preview, shown);
  }

  bindBoard($("puzzle-board"), {
    pressable,
    refuse,
    play,
    ...pointerIntents(model, board, update),
    row: () => board.visualOrder(model.shown && model.shown.board.to_move !== sideOf(model) ? "top" : "bottom"),
  });

  const select = $("puzzle-theme");
  const fillThemes = () => {
    select.replaceChildren(new Option(t("theme_any"), "any"), ...THEMES.map((x) => new Option(t("theme_" + x), x)));
    select.value = model.theme;
  };
  select.addEventListener("change", () => {
    model.theme = select.value;
    prefs.set("puzzle_theme", model.theme);
    next();
  });
  $("puzzle-next").addEventListener("click", next);
  $("puzzle-hint").addEventListener("click", () => {
    if (model.puzzle) request({ study: "puzzle_hint", id: model.puzzle.id });
  });
  $("puzzle-solution").addEventListener("click", () => {
    if (model.puzzle) request({ study: "puzzle_solution", id: model.puzzle.id });
  });
  // The server sets the page's game up on the puzzle's position; the play
  // page is shown once it has.
  $("puzzle-analyse").addEventListener("click", () => {
    if (!model.puzzle) return;
    model.analysing = true;
    request({ study: "puzzle_analyse", id: model.puzzle.id });
  });

  // The puzzle under way, kept for a reload.
  const remember = () => prefs.set("puzzle", playing(model) ? String(model.puzzle.id) : "");

  return {
    // A new connection: the server's puzzle went with the old one, and
    // answers on the way are lost.
    connected() {
      model.asked = 0;
      model.stale = !!model.puzzle;
      if (page() === "puzzles") this.show();
    },
    // The page is shown: the puzzle again after a lost connection, the
    // next one when there is none.
    show() {
      if (model.asked) return;
      if (model.stale && model.puzzle && model.puzzle.status === "playing") {
        model.stale = false;
        request({ study: "puzzle_open", id: model.puzzle.id });
      } else if (!model.puzzle && !model.empty) {
        const kept = Number(prefs.get("puzzle", ""));
        if (Number.isSafeInteger(kept) && kept > 0) {
          model.reopening = true;
          request({ study: "puzzle_open", id: kept });
        } else next();
      }
      model.stale = false;
      update();
    },
    // Whether the next error answers a puzzle request.
    expectsAnswer: () => model.asked > 0,
    receive(view) {
      model.reopening = false;
      if (model.analysing) {
        model.analysing = false;
        analyse();
      }
      if (receivePuzzle(model, view)) {
        model.waiting = false;
        sower.reset(model.queue.shift() ?? null);
        if (!view.puzzle) model.shown = null;
      }
      remember();
      feed();
      update();
    },
    error(message) {
      model.analysing = false;
      receivePuzzleError(model, message);
      // The puzzle kept is gone (another database): the next one instead.
      if (model.reopening) {
        model.reopening = false;
        prefs.set("puzzle", "");
        next();
        return;
      }
      if (model.shown) sower.reset(model.shown);
      update();
    },
    translate() {
      fillThemes();
      update();
    },
    update,
  };
}
