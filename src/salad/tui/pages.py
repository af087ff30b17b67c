"""The pages the terminal app opens over the game, as Rich renderables: the keys, the score
sheet, the last trick, a hand's result, the end of the game and the rules.

Nothing here needs Textual; the app puts these bodies in its page dialog.
"""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from salad.formats.describe import describe
from salad.locale import N_, _, ngettext, pgettext
from salad.moves import card_of, is_declared_high
from salad.tui.render import card_face
from salad.tui.session import Session
from salad.tui.words import (
    HandEnd,
    TrickInfo,
    breakdown_rows,
    card_examples,
    current_hand,
    free_key,
    hand_end,
    penalties_text,
    token_names,
    wild_names,
)

HELP_KEYS = (
    ("← → ↑ ↓", N_("choose a card (only the legal ones)")),
    (N_("Enter, Space"), N_("play (or pass) the chosen card")),
    (N_("mouse"), N_("click a card to play it")),
    ("{examples}", N_("type a card: it is played once complete (Esc cancels)")),
    ("h", N_("hint: the strongest bot's suggestion")),
    ("u", N_("undo your last play (and the bots' replies)")),
    ("l", N_("the last trick")),
    ("p", N_("the score sheet, hand by hand, with totals")),
    ("r", N_("the rules of this game")),
    ("Ctrl+S", N_("save the game (salad play --resume FILE continues it)")),
    ("?", N_("this help")),
    ("Ctrl+Q", N_("quit")),
)
"""The keys and what they do (translated where shown)."""


def help_page(session: Session) -> RenderableType:
    """The keys, and how the game is won: every example and piece of advice from the rules in
    play."""
    g = session.game
    first, second = card_examples(g.deck)
    examples = f"{first.lower()}, {second.lower()}, ..."
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    table.add_column(style="bold yellow", no_wrap=True)
    table.add_column()
    for key, what in HELP_KEYS:
        if key == "{examples}":
            shown = examples
        elif len(key) == 1 and free_key(key, g.deck) != key:
            shown = "Ctrl+" + key.upper()
        else:
            shown = _(key)
        table.add_row(Text(shown), Text(_(what)))
    return Group(table, Text("\n" + advice(session), style="dim"))


def advice(session: Session) -> str:
    """How the game is won and what the marks of the table mean, for the rules in play."""
    g = session.game
    hands = len(g.rules.hands)
    if g.ruleset.highest_wins:
        goal = ngettext(
            "Collect the penalties of each hand (top line): they score for you, and the "
            "highest total after {n} hand wins.",
            "Collect the penalties of each hand (top line): they score for you, and the "
            "highest total after {n} hands wins.",
            hands,
        )
    else:
        goal = ngettext(
            "Avoid the penalties of each hand (top line); the lowest total after {n} hand wins.",
            "Avoid the penalties of each hand (top line); the lowest total after {n} hands wins.",
            hands,
        )
    parts = [
        goal.format(n=hands),
        _(
            "Follow the led suit if you can. Bright cards are the ones you may play, [ ] marks "
            "the chosen one; {dealer} marks the dealer, ★ the winner of a trick."
        ).format(dealer=_("(D)")),
    ]
    tokens = token_names(g)
    if tokens:
        # TRANSLATORS: between two tokens in "● marks the holder of the {tokens}."
        joined = pgettext("between tokens", "; of the ").join(tokens)
        parts.append(_("● marks the holder of the {tokens}.").format(tokens=joined))
    wilds = wild_names(g.deck)
    if wilds:
        parts.append(_("Cards with no suit: {cards}.").format(cards="; ".join(wilds)))
    return " ".join(parts)


def sheet_table(session: Session, current: bool = True) -> Table:
    """The score sheet: a row per hand played, ``current`` adds this hand's points."""
    s = session
    g = s.game
    n = g.players
    col = max(5, min(10, (74 - 24) // n))
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, show_edge=False)
    table.add_column("#", justify="right")
    table.add_column(Text(_("Round")), max_width=24, no_wrap=True, overflow="ellipsis")
    for x in range(n):
        name = s.names[x]
        table.add_column(Text(name[:col]), justify="right", style="cyan" if x == s.seat else None)
    for i, points in enumerate(g.hand_points):
        table.add_row(str(i + 1), Text(_(g.rules.hands[i].round.name)), *map(str, points))
    if current and not g.is_over():
        hand = current_hand(g)
        table.add_row(
            str(hand.index + 1),
            Text(_("{round} (now)").format(round=_(hand.round.name)), style="italic"),
            *(Text(str(p), style="italic dim") for p in g.running_points()),
        )
    best = min(g.totals) if not g.ruleset.highest_wins else max(g.totals)
    table.add_section()
    table.add_row(
        "",
        Text(_("Total"), style="bold"),
        *(Text(str(t), style="bold green" if t == best else "bold") for t in g.totals),
    )
    return table


def sheet_page(session: Session) -> RenderableType:
    """The score sheet, and who won once the game is over."""
    parts: list[RenderableType] = [sheet_table(session)]
    if session.game.is_over():
        parts.append(Text(session.result_lines()[-1], style="bold yellow"))
    return Group(*parts)


def last_trick_page(session: Session, info: TrickInfo) -> RenderableType:
    """A finished trick: every seat's card, who led, who took it and what it cost."""
    s = session
    deck = s.deck
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    for i, m in enumerate(info.moves):
        seat = info.seat(i, s.players)
        face = card_face(deck, card_of(deck, m), "winner" if seat == info.winner else "")
        if is_declared_high(deck, m):
            face.append(" " + _("high"))
        note = _("★ took it") if seat == info.winner else (_("led") if i == 0 else "")
        table.add_row(Text(s.names[seat]), face, Text(note, style="green"))
    if info.cost:
        cost = ngettext("{name}: +{n} point", "{name}: +{n} points", info.cost)
    else:
        cost = _("{name}: no points")
    text = cost.format(name=s.names[info.winner], n=info.cost)
    return Group(table, Text("\n" + text, style="bold"))


def breakdown_table(session: Session, ended: HandEnd) -> Table:
    """A finished hand's points: a row per penalty (and the moon), the hand, the totals."""
    s = session
    g = s.game
    n = g.players
    col = max(5, min(10, (74 - 16) // n))
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, show_edge=False)
    table.add_column(Text(_("Penalty")), max_width=16, no_wrap=True, overflow="ellipsis")
    for x in range(n):
        table.add_column(
            Text(s.names[x][:col]), justify="right", style="cyan" if x == s.seat else None
        )
    for name, row in breakdown_rows(g, ended.breakdown):
        table.add_row(Text(name), *(str(p) if p else Text("·", style="dim") for p in row))
    table.add_section()
    table.add_row(Text(_("This hand"), style="bold"), *(str(p) for p in ended.breakdown.points))
    table.add_row(
        Text(_("Total"), style="bold"), *(Text(str(t), style="bold") for t in ended.totals)
    )
    return table


def hand_over_page(session: Session, index: int) -> RenderableType:
    """Hand ``index`` is over: each seat's points by penalty, the totals, and the next hand."""
    s = session
    g = s.game
    ended = hand_end(g, index)
    parts: list[RenderableType] = [breakdown_table(s, ended)]
    if ended.breakdown.moon >= 0:
        moon = _("{name} shot the moon!").format(name=s.names[ended.breakdown.moon])
        parts.append(Text(moon, style="bold"))
    if index + 1 < len(g.rules.hands):
        nxt = g.rules.hands[index + 1]
        text = _("Next: hand {number}, {round} — {penalties}").format(
            number=nxt.index + 1, round=_(nxt.round.name), penalties=penalties_text(nxt)
        )
        parts.append(Text("\n" + text, style="yellow"))
    return Group(*parts)


def result_page(session: Session) -> RenderableType:
    """The end of the game: the last hand by penalty, the sheet, who won, the final places."""
    g = session.game
    lines = session.result_lines()
    last = len(g.rules.hands) - 1
    return Group(
        Text(
            _("Hand {number}, {round}:").format(
                number=last + 1, round=_(g.rules.hands[last].round.name)
            ),
            style="bold",
        ),
        breakdown_table(session, hand_end(g, last)),
        Text(""),
        sheet_table(session),
        Text(""),
        Text(lines[-1], style="bold yellow"),
        Text("   ".join(lines[:-1])),
    )


def rules_page(session: Session) -> RenderableType:
    """The rules of this game in words."""
    g = session.game
    return Text(describe(g.ruleset, g.players))
