// What the board shows, in order: every state the server sends is drawn
// once, and a move that follows the position on the board is sown first,
// stone by stone, its captured stones flying into the kazan. The player's
// own move is sown at once, on the click, before the server answers; its
// state then only confirms it. One loop draws, item after item; an item
// that fails is reported and the latest state drawn, so the loop never
// stops (a broken chain of promises froze the page once).

import { SIDES } from "./board.js";

// Per stone at most, and per move at most, in ms.
export const SPEEDS = {
  off: null,
  fast: { stone: 40, move: 600 },
  normal: { stone: 75, move: 1200 },
  slow: { stone: 170, move: 3000 },
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class Sower {
  // `board`: the BoardView; `speed()`: a key of SPEEDS; `draw(state)`:
  // draws a whole state; `sound`: the sounds; `onError(error)`;
  // `onIdle()` when everything queued is drawn.
  constructor({ board, speed, draw, sound, onError, onIdle }) {
    this.board = board;
    this.onIdle = onIdle;
    this.speed = speed;
    this.draw = draw;
    this.sound = sound;
    this.onError = onError;
    this.shown = null;
    this.queue = [];
    this.running = false;
    this.epoch = 0;
    this.latest = null;
    this.sowingMs = 0;
  }

  // Whether something is waiting to be drawn or being sown.
  get busy() {
    return this.running || this.queue.length > 0;
  }

  push(state) {
    const last = this.latest;
    this.latest = state;
    // A jump elsewhere (another line, a step back) cuts the sowing short.
    if (last && (state.line !== last.line || state.ply < last.ply)) this.epoch++;
    this.queue.push({ state });
    this.pump();
  }

  // The player's move from the state on the board, sown at once.
  own(preview, from) {
    if (!SPEEDS[this.speed()]) return;
    this.queue.push({ own: preview, from });
    this.pump();
  }

  // Drops everything queued and draws `state` at once.
  reset(state) {
    this.epoch++;
    this.queue = [];
    this.shown = null;
    if (state) this.push(state);
  }

  async pump() {
    if (this.running) return;
    this.running = true;
    while (this.queue.length) {
      const item = this.queue.shift();
      const epoch = this.epoch;
      const cancelled = () => epoch !== this.epoch;
      try {
        if (item.own) {
          const from = item.from;
          if (this.shown && this.shown.line === from.line && this.shown.ply === from.ply) {
            const done = await this.sow(item.own, from.board, from.board.to_move, cancelled);
            if (done) this.shown = { line: from.line, ply: from.ply + 1 };
          }
          continue;
        }
        const state = item.state;
        const shown = this.shown;
        const follows = shown && state.line === shown.line && state.ply === shown.ply + 1 && state.last;
        // Behind by more than one state (steps through a game held down):
        // draw without sowing, to catch up.
        if (follows && SPEEDS[this.speed()] && this.queue.length < 2 && !cancelled()) {
          await this.sow(state.last, state.last.before, state.last.mover, cancelled);
        }
        this.shown = { line: state.line, ply: state.ply };
        this.draw(state);
      } catch (error) {
        this.onError(error);
        this.shown = null;
        if (this.latest) {
          try {
            this.draw(this.latest);
            this.shown = { line: this.latest.line, ply: this.latest.ply };
          } catch (again) {
            this.onError(again);
          }
        }
      }
    }
    this.running = false;
    this.onIdle();
  }

  // Sows `move` (a preview: origin, path, landing, captured, tuzdik) from
  // `before`; false when cut short.
  async sow(move, before, mover, cancelled) {
    const speed = SPEEDS[this.speed()];
    if (!speed) return true;
    const started = performance.now();
    const delay = Math.max(12, Math.min(speed.stone, speed.move / Math.max(1, move.path.length)));
    const holes = before.holes.slice();
    const kazans = before.kazans.slice();
    holes[move.origin] = 0;
    this.board.setCounts(holes, kazans);
    this.board.mark("sowing", [move.origin]);
    for (const step of move.path) {
      await sleep(delay);
      if (cancelled()) return false;
      if (step < 18) holes[step] += 1;
      else kazans[step - 18] += 1;
      this.board.setCounts(holes, kazans, true);
      this.board.mark("sowing", step < 18 ? [step] : []);
      this.sound.stone();
    }
    const taken = move.captured || (move.tuzdik ? 3 : 0);
    if (taken) {
      await sleep(delay);
      if (cancelled()) return false;
      holes[move.landing] = 0;
      this.board.setCounts(holes, kazans);
      this.board.mark("sowing", []);
      if (move.tuzdik) this.sound.tuzdik();
      else this.sound.capture();
      await this.board.fly(move.landing, mover, taken, Math.max(150, Math.min(400, speed.move / 3)));
      if (cancelled()) return false;
      kazans[SIDES.indexOf(mover)] += taken;
      this.board.setCounts(holes, kazans, true);
    }
    await sleep(delay);
    this.board.mark("sowing", []);
    this.sowingMs += performance.now() - started;
    performance.measure("tuzdyk-sowing", { start: started, end: performance.now() });
    return !cancelled();
  }
}
