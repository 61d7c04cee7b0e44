// How a person moves, as intents for the app: with a mouse, a press on a
// hole shows where its last stone lands, the release on it plays, and
// dragging away before the release cancels (hovering previews too); with
// a finger or a pen the same (hold to see, lift to play, slide away to
// cancel); with the keyboard the arrow keys walk the holes of the row to
// move (each showing its preview), Enter or Space plays, Escape lets go.
//
// `intents`: `pressable(index)` (true, or the reason it is not),
// `refuse(index, reason)`, `press(index|null)`, `hover(index|null)`,
// `focus(index|null)`, `play(index)`, `cancel()`, `row()` (the indices of
// the row to move, left to right on screen), and optionally `editing()`:
// while true the board is the position editor's (`bindEditor`) and these
// do nothing.

export function bindBoard(root, intents) {
  let pressed = null;
  const holeOf = (event) => event.target.closest?.(".hole");
  const inside = (event, el) => {
    const box = el.getBoundingClientRect();
    return event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
  };

  const editing = () => !!intents.editing?.();

  root.addEventListener("pointerdown", (event) => {
    const hole = holeOf(event);
    if (!hole || editing() || (event.pointerType === "mouse" && event.button !== 0)) return;
    event.preventDefault();
    const index = Number(hole.dataset.index);
    const answer = intents.pressable(index);
    if (answer !== true) {
      intents.refuse(index, answer);
      return;
    }
    pressed = { index, id: event.pointerId, el: hole, inside: true };
    try {
      hole.setPointerCapture(event.pointerId);
    } catch {
      // A pointer that is already gone: its up or cancel follows.
    }
    intents.press(index);
  });

  // Moves and releases are followed on the whole document: a pointer may
  // leave the board before it lets go, and a capture may be lost.
  document.addEventListener("pointermove", (event) => {
    if (!pressed || event.pointerId !== pressed.id) return;
    const now = inside(event, pressed.el);
    if (now !== pressed.inside) {
      pressed.inside = now;
      intents.press(now ? pressed.index : null);
    }
  });

  const release = (event, play) => {
    if (!pressed || event.pointerId !== pressed.id) return;
    const { index, el } = pressed;
    const onHole = play && inside(event, el);
    pressed = null;
    try {
      el.releasePointerCapture(event.pointerId);
    } catch {
      // Released already.
    }
    intents.press(null);
    // A mouse still over the hole hovers it; anywhere else, nothing.
    if (event.pointerType === "mouse") intents.hover(onHole ? index : null);
    if (onHole) intents.play(index);
    else intents.cancel();
  };
  document.addEventListener("pointerup", (event) => release(event, true));
  document.addEventListener("pointercancel", (event) => release(event, false));

  // Hover previews with a mouse only: a finger has no hover.
  root.addEventListener("pointerover", (event) => {
    const hole = holeOf(event);
    if (hole && event.pointerType === "mouse" && !pressed && !editing()) intents.hover(Number(hole.dataset.index));
  });
  root.addEventListener("pointerout", (event) => {
    const hole = holeOf(event);
    if (hole && event.pointerType === "mouse" && !hole.contains(event.relatedTarget)) intents.hover(null);
  });
  root.addEventListener("contextmenu", (event) => {
    if (holeOf(event)) event.preventDefault();
  });

  root.addEventListener("keydown", (event) => {
    const hole = holeOf(event);
    if (!hole || editing()) return;
    const index = Number(hole.dataset.index);
    const row = intents.row();
    const at = row.indexOf(index);
    const go = (to) => {
      event.preventDefault();
      event.stopPropagation();
      intents.focus(to);
    };
    switch (event.key) {
      case "ArrowLeft":
        if (at > 0) go(row[at - 1]);
        else event.preventDefault();
        break;
      case "ArrowRight":
        if (at >= 0 && at < row.length - 1) go(row[at + 1]);
        else event.preventDefault();
        break;
      case "Home":
        go(row[0]);
        break;
      case "End":
        go(row[row.length - 1]);
        break;
      case "Enter":
      case " ": {
        event.preventDefault();
        event.stopPropagation();
        const answer = intents.pressable(index);
        if (answer === true) intents.play(index);
        else intents.refuse(index, answer);
        break;
      }
      case "Escape":
        event.preventDefault();
        intents.focus(null);
        hole.blur();
        break;
      default:
    }
  });
  // Focus previews only when it came from the keyboard (a click focuses
  // a button too, and its preview would outlive the click).
  root.addEventListener("focusin", (event) => {
    const hole = holeOf(event);
    if (hole && !editing() && hole.matches(":focus-visible")) intents.focus(Number(hole.dataset.index));
  });
  root.addEventListener("focusout", (event) => {
    if (!root.contains(event.relatedTarget)) intents.focus(null);
  });
}

// The intents that only follow the pointer and the focus, on a model with
// `pressed`, `hover`, `focus` and `explain` (the play and puzzle boards
// share them), each followed by `update()`.
export function pointerIntents(model, board, update) {
  return {
    press: (index) => {
      model.pressed = index;
      if (index !== null) model.explain = null;
      update();
    },
    hover: (index) => {
      model.hover = index;
      update();
    },
    focus: (index) => {
      model.focus = index;
      if (index !== null && document.activeElement !== board.element(index)) board.element(index).focus();
      update();
    },
    cancel: () => {
      model.pressed = null;
      update();
    },
  };
}

// How long a finger holds a hole to take a stone away, in ms.
const LONG_PRESS_MS = 500;

// The position editor's gestures on the same board, while
// `intents.editing()`: a click or a tap uses the tool (`use(index,
// false)`); a right click, a long press or a click with Shift (Alt, Ctrl,
// Meta) takes a stone away (`use(index, true)`); with the keyboard the
// arrows walk all eighteen holes (`step(index, key)` gives the next), + or
// Enter adds, − or Delete takes away, T marks a tuzdik (`key(index,
// "add" | "remove" | "tuzdik")`), and the hole focused is selected
// (`select(index)`).
export function bindEditor(root, intents) {
  const holeOf = (event) => event.target.closest?.(".hole");
  let hold = null;
  // A tap handled on its pointerup: the click the browser makes of it
  // follows, and is not a second one.
  let tapped = { index: null, at: 0 };
  const letGo = () => {
    if (hold) clearTimeout(hold.timer);
    hold = null;
  };

  root.addEventListener("pointerdown", (event) => {
    const hole = holeOf(event);
    if (!hole || !intents.editing() || event.pointerType === "mouse") return;
    event.preventDefault();
    letGo();
    const index = Number(hole.dataset.index);
    const held = { index, id: event.pointerId, el: hole, fired: false };
    held.timer = setTimeout(() => {
      held.fired = true;
      intents.use(index, true);
    }, LONG_PRESS_MS);
    hold = held;
  });
  document.addEventListener("pointerup", (event) => {
    if (!hold || event.pointerId !== hold.id) return;
    const { index, el, fired } = hold;
    letGo();
    const box = el.getBoundingClientRect();
    const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
    tapped = { index, at: performance.now() };
    if (!fired && inside) intents.use(index, false);
  });
  document.addEventListener("pointercancel", (event) => {
    if (hold && event.pointerId === hold.id) letGo();
  });
  root.addEventListener("click", (event) => {
    const hole = holeOf(event);
    if (!hole || !intents.editing()) return;
    const index = Number(hole.dataset.index);
    if (tapped.index === index && performance.now() - tapped.at < 1000) {
      tapped = { index: null, at: 0 };
      return;
    }
    intents.use(index, event.shiftKey || event.altKey || event.ctrlKey || event.metaKey);
  });
  root.addEventListener("contextmenu", (event) => {
    const hole = holeOf(event);
    if (!hole || !intents.editing()) return;
    event.preventDefault();
    // A finger's long press: its timer takes the stone, once.
    if (hold) {
      if (!hold.fired) {
        clearTimeout(hold.timer);
        hold.fired = true;
        intents.use(hold.index, true);
      }
      return;
    }
    intents.use(Number(hole.dataset.index), true);
  });
  root.addEventListener("keydown", (event) => {
    const hole = holeOf(event);
    if (!hole || !intents.editing() || event.altKey || event.ctrlKey || event.metaKey) return;
    const index = Number(hole.dataset.index);
    const action = { "+": "add", "=": "add", Enter: "add", "-": "remove", "−": "remove", Delete: "remove", Backspace: "remove", t: "tuzdik", T: "tuzdik" }[event.key];
    if (action) intents.key(index, action);
    else if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) {
      const to = intents.step(index, event.key);
      if (to !== null && to !== undefined) root.querySelector(`.hole[data-index="${to}"]`)?.focus();
    } else return;
    event.preventDefault();
    event.stopPropagation();
  });
  root.addEventListener("focusin", (event) => {
    const hole = holeOf(event);
    if (hole && intents.editing()) intents.select(Number(hole.dataset.index));
  });
}
