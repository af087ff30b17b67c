"""A game review in words, as ``salad review`` prints it: each seat's choices that the search
could tell apart, each hand's points split into lost to choices and forced by the deal, and the
three costliest choices.

Forced choices (one distinct legal choice) are counted, not listed; hindsight lines are marked
``hindsight:`` so they are never mistaken for what the seat could know.
"""

from __future__ import annotations

from salad.lab.review_model import Decision, Estimate, GameReview, SeatReview


def _pts(value: float) -> str:
    return f"{value:.1f}"


def _estimate(e: Estimate) -> str:
    return f"{e.move} {_pts(e.points)}±{_pts(e.se)}"


def _where(d: Decision) -> str:
    if d.kind == "play":
        return f"hand {d.hand} trick {d.trick:>2}"
    return f"hand {d.hand} {d.kind:<8}"


def decision_line(d: Decision) -> str:
    """One decision: where, the choice and the best one with their estimates, cost, label."""
    chosen = next(e for e in d.estimates if e.move == d.chosen)
    best = next(e for e in d.estimates if e.move == d.best)
    line = f"  {_where(d)}  played {_estimate(chosen)}"
    if d.best != d.chosen:
        line += f"  best {_estimate(best)}"
    line += f"  cost {_pts(d.cost)} {d.label}"
    if d.hindsight is not None:
        h = d.hindsight
        line += f"  | hindsight: best {h.best}, cost {_pts(h.cost)}"
    return line


def format_seat(review: GameReview, seat: SeatReview) -> str:
    lines = [f"Seat {seat.seat} ({seat.name}): {seat.points} points"]
    for h in seat.hands:
        mine = [d for d in seat.decisions if d.hand == h.hand]
        forced = sum(1 for d in mine if d.forced)
        lines.append(
            f"Hand {h.hand} {h.round}: {h.points} points: {_pts(h.lost)} lost to choices, "
            f"{_pts(h.dealt)} forced by the deal ({forced} forced choices not listed)"
        )
        lines.extend(decision_line(d) for d in mine if not d.forced)
    lines.append(
        f"Game: {seat.points} points: {_pts(seat.lost)} lost to choices, "
        f"{_pts(seat.dealt)} forced by the deal"
    )
    if seat.hindsight_lost is not None:
        better = sum(1 for d in seat.decisions if d.hindsight is not None and d.hindsight.cost > 0)
        searched = sum(1 for d in seat.decisions if not d.forced)
        lines.append(
            f"Hindsight (every hand known): a better choice at {better} of {searched} decisions "
            f"(costs adding up to {_pts(seat.hindsight_lost)}; each assumes the rest of the "
            "hand is played knowing every card)"
        )
    if seat.costliest:
        lines.append("Costliest choices:")
        for rank, i in enumerate(seat.costliest, 1):
            d = seat.decisions[i]
            lines.append(
                f"  {rank}. {_where(d)}: played {d.chosen}, best {d.best}: "
                f"{_pts(d.cost)} points ({d.label})"
            )
    else:
        lines.append("No choice cost points the search could measure.")
    return "\n".join(lines)


def format_review(review: GameReview) -> str:
    """The whole review as text (one block per seat)."""
    t = review.thresholds
    budget = f"{review.worlds} worlds per decision"
    if review.move_time is not None:
        budget += f", at most {review.move_time:g} s"
    head = [
        f"Review of game {review.game} ({review.ruleset}), {budget}.",
        "Points are the seat's for the hand, estimated from what it knew then (± one standard "
        "error: the true figure is likely within that much); a world is a deal of the hidden "
        "cards that fits what the seat had seen. Forced by the deal: the points taken less "
        "those lost to choices, which no choice could save.",
        f"Labels: inaccuracy from {_pts(t.inaccuracy)}, mistake from {_pts(t.mistake)}, "
        f"blunder from {_pts(t.blunder)} points lost.",
    ]
    if review.hindsight:
        head.append("Hindsight lines search the true deal: what no seat could know at the table.")
    return "\n\n".join(["\n".join(head), *(format_seat(review, s) for s in review.seats)])
