"""A game review in words, as ``salad review`` prints it: each seat's choices that the search
could tell apart, each hand's points split into lost to choices and forced by the deal, and the
three costliest choices.

Forced choices (one distinct legal choice) are counted, not listed; hindsight lines are marked
``hindsight:`` so they are never mistaken for what the seat could know.
"""

from __future__ import annotations

from salad.cards import DeckSpec
from salad.formats.describe import cards_text
from salad.lab.review_model import Decision, Estimate, GameReview, SeatReview
from salad.locale import _, ngettext, pgettext
from salad.presets import PRESETS


def label_text(label: str) -> str:
    """A decision's label in the current language: ``good``, ``inaccuracy``, ``mistake``,
    ``blunder`` (``bon``, ``imprécision``, ``erreur``, ``gaffe``)."""
    labels = {
        "good": pgettext("review label", "good"),
        "inaccuracy": pgettext("review label", "inaccuracy"),
        "mistake": pgettext("review label", "mistake"),
        "blunder": pgettext("review label", "blunder"),
    }
    return labels.get(label, label)


def _pts(value: float) -> str:
    return f"{value:.1f}"


def _estimate(e: Estimate, deck: DeckSpec | None = None) -> str:
    return f"{cards_text(deck, e.move)} {_pts(e.points)}±{_pts(e.se)}"


def _where(d: Decision) -> str:
    if d.kind == "play":
        return _("hand {hand} trick {trick}").format(hand=d.hand, trick=f"{d.trick:>2}")
    kinds = {"pass": pgettext("review", "pass"), "trump": pgettext("review", "trump")}
    return _("hand {hand} {kind}").format(hand=d.hand, kind=f"{kinds.get(d.kind, d.kind):<8}")


def decision_line(d: Decision, deck: DeckSpec | None = None) -> str:
    """One decision: where, the choice and the best one with their estimates, cost, label."""
    chosen = next(e for e in d.estimates if e.move == d.chosen)
    best = next(e for e in d.estimates if e.move == d.best)
    line = "  " + _("{where}  played {choice}").format(
        where=_where(d), choice=_estimate(chosen, deck)
    )
    if d.best != d.chosen:
        line += "  " + _("best {choice}").format(choice=_estimate(best, deck))
    line += "  " + _("cost {points} {label}").format(points=_pts(d.cost), label=label_text(d.label))
    if d.hindsight is not None:
        h = d.hindsight
        line += "  | " + _("hindsight: best {choice}, cost {points}").format(
            choice=cards_text(deck, h.best), points=_pts(h.cost)
        )
    return line


def format_seat(review: GameReview, seat: SeatReview, deck: DeckSpec | None = None) -> str:
    """One seat's review; ``deck``: the game's, to write its cards in the language's letters."""
    lines = [
        _("Seat {seat} ({name}): {points} points").format(
            seat=seat.seat, name=seat.name, points=seat.points
        )
    ]
    for h in seat.hands:
        mine = [d for d in seat.decisions if d.hand == h.hand]
        forced = sum(1 for d in mine if d.forced)
        lines.append(
            ngettext(
                "Hand {hand} {round}: {points} points: {lost} lost to choices, {dealt} forced "
                "by the deal ({n} forced choice not listed)",
                "Hand {hand} {round}: {points} points: {lost} lost to choices, {dealt} forced "
                "by the deal ({n} forced choices not listed)",
                forced,
            ).format(
                hand=h.hand,
                round=_(h.round),
                points=h.points,
                lost=_pts(h.lost),
                dealt=_pts(h.dealt),
                n=forced,
            )
        )
        lines.extend(decision_line(d, deck) for d in mine if not d.forced)
    lines.append(
        _("Game: {points} points: {lost} lost to choices, {dealt} forced by the deal").format(
            points=seat.points, lost=_pts(seat.lost), dealt=_pts(seat.dealt)
        )
    )
    if seat.dealt < 0 or any(h.dealt < 0 for h in seat.hands):
        lines.append(
            _(
                "Below zero, forced by the deal means the choices' estimated cost is more than "
                "the points taken: each estimate is an average over the deals the seat could "
                "not tell apart, and this one fell better than that average."
            )
        )
    if seat.hindsight_lost is not None:
        better = sum(1 for d in seat.decisions if d.hindsight is not None and d.hindsight.cost > 0)
        searched = sum(1 for d in seat.decisions if not d.forced)
        lines.append(
            _(
                "Hindsight (every hand known): a better choice at {better} of {searched} "
                "decisions (costs adding up to {lost}; each assumes the rest of the hand is "
                "played knowing every card)"
            ).format(better=better, searched=searched, lost=_pts(seat.hindsight_lost))
        )
    if seat.costliest:
        lines.append(_("Costliest choices:"))
        for rank, i in enumerate(seat.costliest, 1):
            d = seat.decisions[i]
            lines.append(
                f"  {rank}. "
                + _("{where}: played {choice}, best {best}: {points} points ({label})").format(
                    where=_where(d),
                    choice=cards_text(deck, d.chosen),
                    best=cards_text(deck, d.best),
                    points=_pts(d.cost),
                    label=label_text(d.label),
                )
            )
    else:
        lines.append(_("No choice cost points the search could measure."))
    return "\n".join(lines)


def format_review(review: GameReview) -> str:
    """The whole review as text (one block per seat)."""
    t = review.thresholds
    budget = ngettext("{n} world per decision", "{n} worlds per decision", review.worlds).format(
        n=review.worlds
    )
    if review.move_time is not None:
        budget = _("{worlds}, at most {seconds} s").format(
            worlds=budget, seconds=f"{review.move_time:g}"
        )
    head = [
        _("Review of game {game} ({rules}), {budget}.").format(
            game=review.game, rules=_(review.ruleset), budget=budget
        ),
        _(
            "Points are the seat's for the hand, estimated from what it knew then (± one "
            "standard error: the true figure is likely within that much); a world is a deal of "
            "the hidden cards that fits what the seat had seen. Forced by the deal: the points "
            "taken less those lost to choices, which no choice could save."
        ),
        _(
            "Labels: inaccuracy from {inaccuracy}, mistake from {mistake}, blunder from "
            "{blunder} points lost."
        ).format(inaccuracy=_pts(t.inaccuracy), mistake=_pts(t.mistake), blunder=_pts(t.blunder)),
    ]
    if review.hindsight:
        head.append(
            _("Hindsight lines search the true deal: what no seat could know at the table.")
        )
    # the deck of the preset the review names by its title (house rules keep the codes)
    deck = next((rs.deck for rs in PRESETS.values() if rs.title == review.ruleset), None)
    seats = (format_seat(review, s, deck) for s in review.seats)
    return "\n\n".join(["\n".join(head), *seats])
