// @ts-check
// Passing at once (docs/protocol.md, "Passing at once"): in a pass phase every seat chooses its
// cards when it likes. The server's view stays the engine's, which takes the passes one seat
// after the other; the state's `passing` says what this seat may choose now and has chosen,
// and who is still choosing. The page draws the view as `passing` says.

/** @typedef {import("../messages.js").CompleteView} View */
/** @typedef {import("../messages.js").Passing} Passing */

/**
 * The view as the page draws it in a pass phase played at once: this seat to move while it has
 * cards to choose (its `legal` those cards), its choice so far as passed; once it has chosen,
 * the next seat still choosing to move (the engine's one, not itself, when all have chosen
 * and the cards are about to go round). Any other view as it came.
 * @param {View | null} view
 * @param {Passing | undefined} passing
 * @param {number} you
 * @returns {View | null}
 */
export function asChosen(view, passing, you) {
  if (!view || !passing || view.phase !== "pass") return view;
  const others = passing.choosing.filter((s) => s !== you);
  let toMove = view.to_move;
  if (you >= 0 && passing.legal.length) toMove = you;
  else if (others.length) toMove = others[0];
  else if (toMove === you) toMove = (you + 1) % view.players;
  if (you < 0) return { ...view, to_move: toMove };
  return { ...view, to_move: toMove, legal: passing.legal, passed: passing.chosen };
}
