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
from salad.moves import card_of, is_declared_high
from salad.tui.render import card_face
from salad.tui.session import Session
from salad.tui.words import (
    HandEnd,
    TrickInfo,
    breakdown_rows,
    card_examples,
    current_hand,
    hand_end,
    penalties_text,
    token_names,
    wild_names,
)

HELP_KEYS = (
    ("← → ↑ ↓", "choose a card (only the legal ones)"),
    ("Enter, Space", "play (or pass) the chosen card"),
    ("mouse", "click a card to play it"),
    ("{examples}", "type a card: it is played once complete (Esc cancels)"),
    ("h", "hint: the strongest bot's suggestion"),
    ("u", "undo your last play (and the bots' replies)"),
    ("l", "the last trick"),
    ("p", "the score sheet, hand by hand, with totals"),
    ("r", "the rules of this game"),
    ("Ctrl+S", "save the game (salad play --resume FILE continues it)"),
    ("?", "this help"),
    ("Ctrl+Q", "quit"),
)


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
        table.add_row(key.format(examples=examples), what)
    return Group(table, Text("\n" + advice(session), style="dim"))


def advice(session: Session) -> str:
    """How the game is won and what the marks of the table mean, for the rules in play."""
    g = session.game
    hands = len(g.rules.hands)
    if g.ruleset.highest_wins:
        goal = (
            f"Collect the penalties of each hand (top line): they score for you, and the "
            f"highest total after {hands} hands wins."
        )
    else:
        goal = (
            f"Avoid the penalties of each hand (top line); the lowest total after {hands} "
            "hands wins."
        )
    parts = [
        goal,
        "Follow the led suit if you can. Bright cards are the ones you may play, [ ] marks "
        "the chosen one; (D) marks the dealer, ★ the winner of a trick.",
    ]
    tokens = token_names(g)
    if tokens:
        parts.append("● marks the holder of the " + "; of the ".join(tokens) + ".")
    wilds = wild_names(g.deck)
    if wilds:
        parts.append("Cards with no suit: " + "; ".join(wilds) + ".")
    return " ".join(parts)


def sheet_table(session: Session, current: bool = True) -> Table:
    """The score sheet: a row per hand played, ``current`` adds this hand's points."""
    s = session
    g = s.game
    n = g.players
    col = max(5, min(10, (74 - 24) // n))
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, show_edge=False)
    table.add_column("#", justify="right")
    table.add_column("Round", max_width=24, no_wrap=True, overflow="ellipsis")
    for x in range(n):
        name = s.names[x]
        table.add_column(name[:col], justify="right", style="cyan" if x == s.seat else None)
    for i, points in enumerate(g.hand_points):
        table.add_row(str(i + 1), g.rules.hands[i].round.name, *map(str, points))
    if current and not g.is_over():
        hand = current_hand(g)
        table.add_row(
            str(hand.index + 1),
            Text(f"{hand.round.name} (now)", style="italic"),
            *(Text(str(p), style="italic dim") for p in g.running_points()),
        )
    best = min(g.totals) if not g.ruleset.highest_wins else max(g.totals)
    table.add_section()
    table.add_row(
        "",
        Text("Total", style="bold"),
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
            face.append(" high")
        note = "★ took it" if seat == info.winner else ("led" if i == 0 else "")
        table.add_row(s.names[seat], face, Text(note, style="green"))
    cost = f"+{info.cost} points" if info.cost else "no points"
    return Group(table, Text(f"\n{s.names[info.winner]}: {cost}", style="bold"))


def breakdown_table(session: Session, ended: HandEnd) -> Table:
    """A finished hand's points: a row per penalty (and the moon), the hand, the totals."""
    s = session
    g = s.game
    n = g.players
    col = max(5, min(10, (74 - 16) // n))
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, show_edge=False)
    table.add_column("Penalty", max_width=16, no_wrap=True, overflow="ellipsis")
    for x in range(n):
        table.add_column(s.names[x][:col], justify="right", style="cyan" if x == s.seat else None)
    for name, row in breakdown_rows(g, ended.breakdown):
        table.add_row(name, *(str(p) if p else Text("·", style="dim") for p in row))
    table.add_section()
    table.add_row(Text("This hand", style="bold"), *(str(p) for p in ended.breakdown.points))
    table.add_row(Text("Total", style="bold"), *(Text(str(t), style="bold") for t in ended.totals))
    return table


def hand_over_page(session: Session, index: int) -> RenderableType:
    """Hand ``index`` is over: each seat's points by penalty, the totals, and the next hand."""
    s = session
    g = s.game
    ended = hand_end(g, index)
    parts: list[RenderableType] = [breakdown_table(s, ended)]
    if ended.breakdown.moon >= 0:
        parts.append(Text(f"{s.names[ended.breakdown.moon]} shot the moon!", style="bold"))
    if index + 1 < len(g.rules.hands):
        nxt = g.rules.hands[index + 1]
        parts.append(
            Text(
                f"\nNext: hand {nxt.index + 1}, {nxt.round.name} — {penalties_text(nxt)}",
                style="yellow",
            )
        )
    return Group(*parts)


def result_page(session: Session) -> RenderableType:
    """The end of the game: the last hand by penalty, the sheet, who won, the final places."""
    g = session.game
    lines = session.result_lines()
    last = len(g.rules.hands) - 1
    return Group(
        Text(f"Hand {last + 1}, {g.rules.hands[last].round.name}:", style="bold"),
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
