// The board: two rows of nine holes and the two kazans between them, as
// on a real board, drawn from what the server sends (holes 0..17 in sowing
// order: White 1..9, then Black 1..9). Every hole has the same fixed size
// whatever it holds: its stones lie in pairs from the bottom (so an odd
// count shows its odd stone), later ones heaped over them, and its count is
// always written above them. Each kazan is a trough that fills from the
// left, with a line where 82 stones win. No rule is computed here.

export const SIDES = ["white", "black"];
// Stones drawn in one hole; beyond, the count says how many.
const HOLE_STONES = 40;

// Where the k-th stone of a hole lies, in % of the pile box (left, bottom):
// five rows of pairs first, then staggered layers heaped over them.
const SLOTS = (() => {
  const slots = [];
  const row = 18.5;
  for (let r = 0; r < 5; r++) slots.push([17, 2 + r * row], [53, 2 + r * row]);
  for (let r = 0; r < 4; r++) slots.push([0, 11 + r * row], [35, 11 + r * row], [70, 11 + r * row]);
  for (let r = 0; r < 5; r++) slots.push([26, 6 + r * row], [62, 6 + r * row]);
  for (let r = 0; r < 4; r++) slots.push([8, 15 + r * row], [44, 15 + r * row], [79, 15 + r * row]);
  for (let r = 0; r < 3; r++) slots.push([35, 24 + r * row], [0, 24 + r * row]);
  return slots.slice(0, HOLE_STONES);
})();

function make(tag, className, parent) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (parent) parent.append(el);
  return el;
}

// Draws `count` stones in `pile` by adding or removing from the end, so a
// stone sown is one new element and nothing else moves.
function fillHole(pile, count, animateNew) {
  const shown = Math.min(count, HOLE_STONES);
  while (pile.childElementCount > shown) pile.lastElementChild.remove();
  while (pile.childElementCount < shown) {
    const k = pile.childElementCount;
    const stone = make("i", animateNew ? "new" : "", pile);
    stone.style.left = SLOTS[k][0] + "%";
    stone.style.bottom = SLOTS[k][1] + "%";
  }
}

function fillKazan(pile, count, animateNew) {
  while (pile.childElementCount > count) pile.lastElementChild.remove();
  while (pile.childElementCount < count) make("i", animateNew ? "new" : "", pile);
}

export class BoardView {
  // `root` is emptied and filled with the board.
  constructor(root, { interactive = true } = {}) {
    this.root = root;
    this.interactive = interactive;
    this.bottom = null;
    this.lit = null;
    this.holes = [];
    this.kazans = {};
    this.counts = { holes: new Array(18).fill(-1), kazans: [-1, -1] };
    this.build();
  }

  build() {
    const root = this.root;
    root.replaceChildren();
    root.classList.add("board");
    this.numberRows = [make("div", "numbers top", root)];
    this.rows = [make("div", "row top", root)];
    const middle = make("div", "kazans", root);
    this.rows.push(make("div", "row bottom", root));
    this.numberRows.push(make("div", "numbers bottom", root));
    this.flights = make("div", "flights", root);
    for (let index = 0; index < 18; index++) {
      const hole = make(this.interactive ? "button" : "div", "hole");
      if (this.interactive) {
        hole.type = "button";
        hole.tabIndex = -1;
      }
      hole.dataset.index = index;
      hole.dataset.side = SIDES[Math.floor(index / 9)];
      hole.dataset.number = (index % 9) + 1;
      const count = make("span", "count", hole);
      const pile = make("span", "pile", hole);
      const tuz = make("span", "tuz", hole);
      tuz.textContent = "X";
      tuz.setAttribute("aria-hidden", "true");
      const drop = make("span", "drop", hole);
      drop.setAttribute("aria-hidden", "true");
      make("span", "target", hole).setAttribute("aria-hidden", "true");
      this.holes.push({ el: hole, count, pile, drop });
    }
    for (const side of SIDES) {
      const kazan = make("div", "kazan", middle);
      kazan.dataset.side = side;
      const trough = make("div", "trough", kazan);
      const pile = make("span", "kpile", trough);
      make("span", "win-line", trough).setAttribute("aria-hidden", "true");
      const drop = make("span", "drop", trough);
      const count = make("span", "kcount", kazan);
      this.kazans[side] = { el: kazan, pile, count, drop, trough };
    }
    this.middle = middle;
  }

  // The side drawn at the bottom: its holes 1..9 from the left; the other
  // row shows its holes 9..1, as that player numbers them from their left.
  orient(bottom) {
    if (this.bottom === bottom) return;
    this.bottom = bottom;
    const top = bottom === "white" ? "black" : "white";
    const row = (side, reversed) => {
      const first = side === "white" ? 0 : 9;
      const holes = this.holes.slice(first, first + 9).map((h) => h.el);
      return reversed ? holes.reverse() : holes;
    };
    this.rows[0].replaceChildren(...row(top, true));
    this.rows[1].replaceChildren(...row(bottom, false));
    this.rows[0].dataset.side = top;
    this.rows[1].dataset.side = bottom;
    const numbers = (reversed) => {
      const spans = [];
      for (let i = 0; i < 9; i++) {
        const span = document.createElement("span");
        span.textContent = reversed ? 9 - i : i + 1;
        spans.push(span);
      }
      return spans;
    };
    this.numberRows[0].replaceChildren(...numbers(true));
    this.numberRows[1].replaceChildren(...numbers(false));
    this.middle.replaceChildren(this.kazans[top].el, this.kazans[bottom].el);
    this.kazans[top].el.dataset.place = "top";
    this.kazans[bottom].el.dataset.place = "bottom";
    this.light(this.lit);
  }

  // Lights the row and kazan of `side` (none: null).
  light(side) {
    this.lit = side;
    this.rows.forEach((row) => row.classList.toggle("lit", !!side && row.dataset.side === side));
    SIDES.forEach((s) => this.kazans[s].el.classList.toggle("lit", s === side));
  }

  // Hole indices in the order they appear on screen, the player's row
  // (bottom) first, left to right.
  visualOrder(row) {
    const els = [...this.rows[row === "top" ? 0 : 1].children];
    return els.map((el) => Number(el.dataset.index));
  }

  // Counts only: what changes from stone to stone while sowing.
  setCounts(holes, kazans, animateNew = false) {
    holes.forEach((count, index) => {
      if (this.counts.holes[index] === count) return;
      this.counts.holes[index] = count;
      const hole = this.holes[index];
      hole.count.textContent = count;
      fillHole(hole.pile, count, animateNew);
      hole.el.dataset.count = count;
    });
    SIDES.forEach((side, i) => {
      if (this.counts.kazans[i] === kazans[i]) return;
      this.counts.kazans[i] = kazans[i];
      const kazan = this.kazans[side];
      kazan.count.textContent = kazans[i];
      fillKazan(kazan.pile, kazans[i], animateNew);
      kazan.el.dataset.count = kazans[i];
    });
  }

  // The whole position: counts, tuzdiks with their owners, the side to
  // move lit (none when `over`).
  setPosition(board, over) {
    this.setCounts(board.holes, board.kazans);
    this.holes.forEach((hole, index) => {
      const owner = board.tuzdiks.findIndex((t) => t === index);
      hole.el.classList.toggle("tuzdik", owner >= 0);
      hole.el.dataset.owner = owner >= 0 ? SIDES[owner] : "";
    });
    this.light(over ? null : board.to_move);
  }

  // Sets `cls` on exactly the holes listed.
  mark(cls, indices) {
    const set = new Set((indices ?? []).filter((i) => i !== null && i !== undefined));
    this.holes.forEach((hole, index) => hole.el.classList.toggle(cls, set.has(index)));
  }

  // The preview of a move: how many stones fall in each hole (and kazan),
  // and the landing hole with what happens there (`capture`, `tuzdik`,
  // `refused`, `none`). `null` clears it.
  showPath(preview) {
    const drops = new Map();
    const kazanDrops = [0, 0];
    if (preview) {
      for (const step of preview.path) {
        if (step < 18) drops.set(step, (drops.get(step) ?? 0) + 1);
        else kazanDrops[step - 18] += 1;
      }
    }
    this.holes.forEach((hole, index) => {
      const n = drops.get(index) ?? 0;
      hole.drop.textContent = n ? "+" + n : "";
      hole.el.classList.toggle("path", n > 0);
      hole.el.dataset.effect = "";
    });
    SIDES.forEach((side, i) => {
      this.kazans[side].drop.textContent = kazanDrops[i] ? "+" + kazanDrops[i] : "";
    });
    this.mark("landing", preview ? [preview.landing] : []);
    if (preview && preview.landing < 18) {
      const effect = preview.tuzdik ? "tuzdik" : preview.captured ? "capture" : preview.refused ? "refused" : "none";
      this.holes[preview.landing].el.dataset.effect = effect;
    }
  }

  // The accessible name of each hole, from `label(index)`.
  setLabels(label) {
    this.holes.forEach((hole, index) => hole.el.setAttribute("aria-label", label(index)));
  }

  setTitles(kazanTitle, tuzdikTitle) {
    SIDES.forEach((side) => (this.kazans[side].el.title = kazanTitle(side)));
    this.holes.forEach((hole) => {
      const owner = hole.el.dataset.owner;
      hole.el.querySelector(".tuz").title = owner ? tuzdikTitle(owner) : "";
    });
  }

  element(index) {
    return this.holes[index].el;
  }

  // Stones flying from hole `from` into `side`'s kazan, in `ms`.
  async fly(from, side, count, ms) {
    const origin = this.holes[from].pile.getBoundingClientRect();
    const target = this.kazans[side].trough.getBoundingClientRect();
    const frame = this.root.getBoundingClientRect();
    const stones = [];
    for (let i = 0; i < Math.min(count, 12); i++) {
      const stone = make("i", "flying", this.flights);
      const x = origin.left - frame.left + (i % 2) * origin.width * 0.4 + origin.width * 0.15;
      const y = origin.bottom - frame.top - (Math.floor(i / 2) + 1) * origin.width * 0.3;
      stone.style.left = x + "px";
      stone.style.top = y + "px";
      stone.style.transitionDuration = ms + "ms";
      stones.push({ stone, dx: target.left + target.width * 0.75 - frame.left - x, dy: target.top + target.height / 2 - frame.top - y });
    }
    // One frame for the start position to be drawn, then the move.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (const { stone, dx, dy } of stones) stone.style.transform = `translate(${dx}px, ${dy}px) scale(0.6)`;
    await new Promise((resolve) => setTimeout(resolve, ms));
    for (const { stone } of stones) stone.remove();
  }
}
