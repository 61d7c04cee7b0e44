// The board: two rows of nine holes and the two kazans, drawn from what the
// server sends (holes 0..17 in sowing order: White 1..9, Black 1..9), and
// the sowing animated stone by stone. No rule is computed here.

const SIDES = ["white", "black"];
const MOST_DOTS = 40;

function dots(pile, count) {
  const shown = Math.min(count, MOST_DOTS);
  if (pile.childElementCount === shown) return;
  pile.replaceChildren();
  for (let i = 0; i < shown; i++) {
    const dot = document.createElement("i");
    pile.append(dot);
  }
}

export class Board {
  constructor(root, handlers) {
    this.root = root;
    this.handlers = handlers;
    this.holes = [];
    this.kazans = {};
    this.bottom = "white";
    this.build();
  }

  build() {
    const make = (tag, cls) => {
      const el = document.createElement(tag);
      el.className = cls;
      return el;
    };
    for (let index = 0; index < 18; index++) {
      const hole = make("button", "hole");
      hole.type = "button";
      hole.dataset.index = index;
      hole.dataset.side = index < 9 ? "white" : "black";
      hole.dataset.number = (index % 9) + 1;
      hole.append(make("span", "num"), make("span", "count"), make("div", "pile"), make("span", "mark"));
      this.listen(hole, index);
      this.holes.push(hole);
    }
    for (const side of SIDES) {
      const kazan = make("div", "kazan");
      kazan.dataset.side = side;
      kazan.append(make("span", "label"), make("span", "count"), make("div", "pile"));
      this.kazans[side] = kazan;
    }
    this.rows = [make("div", "row top"), make("div", "row bottom")];
    this.root.replaceChildren(this.kazans.black, this.rows[0], this.rows[1], this.kazans.white);
  }

  // Mouse: a press plays at once, hovering previews. Touch and pen: a tap
  // plays, pressing and holding previews (and plays nothing).
  listen(hole, index) {
    let holdTimer = null;
    let held = false;
    hole.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      if (event.pointerType === "mouse") {
        this.handlers.play(index);
        return;
      }
      held = false;
      holdTimer = setTimeout(() => {
        held = true;
        this.handlers.preview(index);
      }, 350);
    });
    hole.addEventListener("pointerup", (event) => {
      if (event.pointerType === "mouse") return;
      clearTimeout(holdTimer);
      if (held) this.handlers.preview(null);
      else this.handlers.play(index);
    });
    hole.addEventListener("pointercancel", () => {
      clearTimeout(holdTimer);
      this.handlers.preview(null);
    });
    hole.addEventListener("pointerenter", (event) => {
      if (event.pointerType === "mouse") this.handlers.preview(index);
    });
    hole.addEventListener("pointerleave", (event) => {
      if (event.pointerType === "mouse") this.handlers.preview(null);
    });
    hole.addEventListener("contextmenu", (event) => event.preventDefault());
  }

  // The side drawn at the bottom, its holes 1..9 from the left; the other
  // row shows its holes 9..1, as that player numbers them from their left.
  orient(bottom) {
    if (this.bottom === bottom && this.rows[0].childElementCount) return;
    this.bottom = bottom;
    const top = bottom === "white" ? "black" : "white";
    const row = (side, reversed) => {
      const first = side === "white" ? 0 : 9;
      const holes = this.holes.slice(first, first + 9);
      return reversed ? holes.reverse() : holes;
    };
    this.rows[0].replaceChildren(...row(top, true));
    this.rows[1].replaceChildren(...row(bottom, false));
    this.root.replaceChildren(this.kazans[top], this.rows[0], this.rows[1], this.kazans[bottom]);
  }

  // Counts and piles only: what changes from stone to stone.
  drawCounts(holes, kazans) {
    holes.forEach((count, index) => {
      const hole = this.holes[index];
      hole.querySelector(".count").textContent = count;
      dots(hole.querySelector(".pile"), count);
    });
    SIDES.forEach((side, i) => {
      const kazan = this.kazans[side];
      kazan.querySelector(".count").textContent = kazans[i];
      dots(kazan.querySelector(".pile"), kazans[i]);
    });
  }

  // The whole position: counts, tuzdiks and their owners, numbers, labels.
  draw(board, labels, tuzdikTitle) {
    this.drawCounts(board.holes, board.kazans);
    this.holes.forEach((hole, index) => {
      hole.querySelector(".num").textContent = (index % 9) + 1;
      const owner = board.tuzdiks.findIndex((t) => t === index);
      const mark = hole.querySelector(".mark");
      hole.classList.toggle("tuzdik", owner >= 0);
      hole.dataset.tuzdikOwner = owner >= 0 ? SIDES[owner] : "";
      mark.textContent = owner >= 0 ? "X" : "";
      mark.title = owner >= 0 ? tuzdikTitle(SIDES[owner]) : "";
    });
    SIDES.forEach((side) => {
      const kazan = this.kazans[side];
      kazan.querySelector(".label").textContent = labels[side];
      kazan.classList.toggle("to-move", board.to_move === side);
    });
  }

  // Sets `cls` on exactly the holes listed.
  mark(cls, indices) {
    const set = new Set(indices.filter((i) => i !== null && i !== undefined));
    this.holes.forEach((hole, index) => hole.classList.toggle(cls, set.has(index)));
  }

  hole(index) {
    return this.holes[index];
  }

  // Plays `move` (a preview with `before`, `origin` and `path`) stone by
  // stone; `alive()` false stops it early.
  async animate(move, stoneMs, alive) {
    const holes = move.before.holes.slice();
    const kazans = move.before.kazans.slice();
    holes[move.origin] = 0;
    this.drawCounts(holes, kazans);
    this.mark("sowing", [move.origin]);
    const delay = Math.max(8, Math.min(stoneMs, 3000 / Math.max(1, move.path.length)));
    for (const step of move.path) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (!alive()) return;
      if (step < 18) holes[step] += 1;
      else kazans[step - 18] += 1;
      this.drawCounts(holes, kazans);
      this.mark("sowing", step < 18 ? [step] : []);
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    this.mark("sowing", []);
  }
}
