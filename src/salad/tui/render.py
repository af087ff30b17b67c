"""The game screen of ``salad play`` as Rich text: the info bar, the table, your hand and the
message lines, drawn from the session and your view of the game.

Nothing here needs Textual, so the drawing can be tested (and looked at) on its own::

    >>> from salad.formats.rules import load_ruleset
    >>> from salad.tui.session import Session
    >>> s = Session.new(load_ruleset("canadian"), 4, seat=0, bots="random", seed=1)
    >>> print(info_lines(s, 80)[1].plain)
     No Tricks  —  Tricks 10 each
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text

from salad.cards import NO_SUIT, Card, Deck, cards_of
from salad.locale import _, ngettext
from salad.locale import cards as shown
from salad.moves import Move, card_of, is_declared_high
from salad.tui.session import Session
from salad.tui.words import (
    HandEnd,
    card_label,
    current_hand,
    hand_end,
    last_trick,
    penalties_text,
    sorted_hand,
    suit_label,
    token_name,
    wild_names,
)
from salad.view import Phase, View

_PALETTE = ("#d75f00", "#008700", "#d70000", "#8700af", "#8a6a00", "#005fd7")
_RED_SYMBOLS = "♥♦"
_BLACK_SYMBOLS = "♣♠"

Span = tuple[int, int, int, Card]
"""Where a card of the hand is drawn: (row, first column, past the last column, card)."""


@dataclass
class Scene:
    """What the game screen shows besides the game: the state of the screen around it."""

    session: Session
    view: View
    """Your view of the game."""
    bot_pending: bool = False
    """A bot is thinking."""
    blocked: bool = False
    """A question or a page is open: the bots wait."""
    cursor: Card | None = None
    hint_move: Move | None = None
    entry: str = ""
    """The card being typed."""
    news: str = ""
    error: str = ""
    ended: HandEnd | None = None
    """A hand just finished: the table shows its last trick and its points until the summary
    is read (the engine has dealt the next hand already)."""
    summary_open: bool = False
    """The summary of the ``ended`` hand is open."""

    def __post_init__(self) -> None:
        g = self.session.game
        if self.ended is None and g.is_over():
            self.ended = hand_end(g, len(g.rules.hands) - 1)


def suit_colour(deck: Deck, card: Card) -> str:
    """The ink of a card: red and black for the French suits, a palette for any other deck."""
    suit = deck.suit_of[card]
    if suit == NO_SUIT:
        return "blue3"
    symbol = deck.suits[suit].symbol
    if symbol in _RED_SYMBOLS:
        return "red3"
    if symbol in _BLACK_SYMBOLS:
        return "black"
    return _PALETTE[suit % len(_PALETTE)]


MARKS = {"cursor": ("[", "]"), "hint": ("(", ")"), "passed": ("*", "*")}
"""The brackets of a card face in these states: without colour (NO_COLOR) they still show."""


def card_face(deck: Deck, card: Card, state: str = "legal") -> Text:
    """A card as a small face: `` Q♠ `` in the suit's ink on white; dim when not playable;
    ``[Q♠]`` when chosen, ``(Q♠)`` when hinted, ``*Q♠*`` when passed."""
    left, right = MARKS.get(state, (" ", " "))
    label = f"{left}{shown.short(deck, card)}{right}"
    ink = suit_colour(deck, card)
    if state == "cursor":
        style = f"bold {ink} on gold1"
    elif state == "hint":
        style = f"bold {ink} on pale_green1"
    elif state == "passed":
        style = "bold black on cyan"
    elif state == "dim":
        style = "grey58 on grey27"
    elif state == "winner":
        style = f"bold {ink} on pale_green1"
    else:
        style = f"bold {ink} on grey93"
    return Text(label, style=style)


def legal_cards(session: Session) -> list[Card]:
    """The cards you may play or pass now (none in the trump phase or on another's turn)."""
    s = session
    if not s.human_turn() or s.game.phase == Phase.TRUMP:
        return []
    return list(dict.fromkeys(card_of(s.deck, m) for m in s.game.legal_moves()))


# -- the info bar ------------------------------------------------------------------------------


def info_lines(session: Session, width: int, index: int = -1) -> list[Text]:
    """The game, the hand and the trump; then the round and its penalties (on a third line
    only when they do not fit on one). ``index``: the hand to show (default: this one)."""
    g = session.game
    hand = current_hand(g) if index < 0 else g.rules.hands[index]
    number = _("Hand {number} of {total}").format(number=hand.index + 1, total=len(g.rules.hands))
    left = f" {_(g.ruleset.title)}  ·  {number}"
    if g.seed is not None:
        left += "  ·  " + _("seed {seed}").format(seed=g.seed)
    notes = []
    if g.ruleset.highest_wins:
        notes.append(_("highest total wins"))
    if g.trump != NO_SUIT and index < 0:
        notes.append(_("Trump {suit}").format(suit=suit_label(g.deck, g.trump)))
    right = " · ".join(notes) + " " if notes else ""
    bar = "bold white on dark_green"
    line1 = Text(left, style=bar)
    line1.append(" " * max(width - cell_len(left) - cell_len(right), 1), style=bar)
    line1.append(right, style="bold yellow on dark_green")
    line1.truncate(width)
    head = Text(f" {_(hand.round.name)}", style="bold")
    full = penalties_text(hand)
    if head.cell_len + 5 + cell_len(full) <= width:
        head.append("  —  ", style="dim").append(full, style="yellow")
        return [line1, head]
    rest = penalties_text(hand, max(width - 3, 1))
    if head.cell_len + 3 + cell_len(rest) <= width:
        head.append(" — ", style="dim").append(rest, style="yellow")
        return [line1, head]
    tail = Text("   " + rest, style="yellow")
    tail.truncate(width, overflow="ellipsis")
    return [line1, head, tail]


# -- the table ---------------------------------------------------------------------------------


@dataclass
class _Slot:
    x: int
    y: int


def shorten(name: str, room: int) -> str:
    """A name cut to ``room`` characters, keeping a trailing seat number: ``Ran… 8``."""
    if len(name) <= room:
        return name
    head, _, number = name.rpartition(" ")
    if head and number.isdigit() and room > len(number) + 2:
        return head[: room - len(number) - 2] + "… " + number
    return name[: max(room - 1, 1)] + "…"


def _layout(others: int, width: int, height: int) -> tuple[list[_Slot], int]:
    """Where the other seats sit, clockwise from your left: up the left side, along the top,
    down the right side; and the width of a seat's box."""
    if others == 2:
        sides, top = 0, 2
    elif others >= 7:
        sides, top = 2, others - 4
    else:
        sides, top = 1, others - 2
    across = max(top, 3)
    bw = max(14, min(24, (width - (across + 1)) // across))
    mid = max(3, (height - 3) // 2)
    bottom = height - 3
    slots: list[_Slot] = []
    if sides == 2:
        slots.append(_Slot(0, bottom))
    if sides:
        slots.append(_Slot(0, mid))
    if top:
        gap = (width - top * bw) // (top + 1)
        for i in range(top):
            x = gap + i * (bw + gap)
            if others == 2:
                x = 0 if i == 0 else width - bw
            slots.append(_Slot(x, 0))
    if sides:
        slots.append(_Slot(width - bw, mid))
    if sides == 2:
        slots.append(_Slot(width - bw, bottom))
    return slots, bw


def table_text(scene: Scene, width: int, height: int) -> Text:
    """The table: every seat as a small box around the trick, you at the bottom."""
    s = scene.session
    g = s.game
    n = g.players
    view = scene.view
    shown: tuple[Move, ...] = view.trick
    leader = view.leader
    winner = -1
    if scene.ended is not None:
        done_ = scene.ended.trick
        shown, leader, winner = done_.moves, done_.leader, done_.winner
    elif g.phase == Phase.PLAY and not view.trick and view.tricks:
        done = view.tricks[-1]
        shown, leader, winner = done.moves, done.leader, done.winner
    played = {(leader + i) % n: m for i, m in enumerate(shown)}
    others = [(s.seat + k) % n for k in range(1, n)]
    slots, bw = _layout(len(others), width, height)
    rows: list[list[tuple[int, Text]]] = [[] for _row in range(height)]

    def put(x: int, y: int, text: Text) -> None:
        if 0 <= y < height:
            rows[y].append((x, text))

    for seat, slot in zip([*others, s.seat], [*slots, _Slot(-1, -1)], strict=True):
        if seat == s.seat:
            slot = _Slot((width - bw) // 2, height - 3)
        box_lines = seat_box(scene, seat, bw, played.get(seat), winner, seat == leader)
        for i, line in enumerate(box_lines):
            put(slot.x, slot.y + i, line)
    # The middle of the table: which trick, the led suit, what just happened.
    centre = centre_lines(s, view, winner, scene.ended)
    left = bw + 1 if n > 3 else 0
    inner = width - 2 * left
    top = max(0, (height - len(centre)) // 2)
    for i, line in enumerate(centre):
        line.truncate(inner)
        put(left + max(0, (inner - line.cell_len) // 2), top + i, line)
    out = []
    for items in rows:
        line = Text()
        for x, text in sorted(items, key=lambda item: item[0]):
            if x < line.cell_len:
                continue
            line.append(" " * (x - line.cell_len))
            line.append_text(text)
        line.truncate(width)
        out.append(line)
    return Text("\n").join(out)


def seat_box(
    scene: Scene, seat: int, bw: int, move: Move | None, winner: int, led: bool = False
) -> list[Text]:
    """A seat's box, ``bw`` wide: its name, the card it played (``led``: the first of the
    trick, so marked: the order of play goes from it), its points."""
    s = scene.session
    g = s.game
    view = scene.view
    deck = g.deck
    ended = scene.ended
    to_move = g.to_move == seat and not g.is_over() and ended is None
    if seat == winner:
        border = "bold green"
    elif to_move:
        border = "bold yellow"
    elif seat == s.seat:
        border = "cyan"
    else:
        border = "grey50"
    name = s.names[seat]
    marks = ""
    dealer, token = (g.dealer, view.token) if ended is None else (ended.dealer, ended.token)
    if seat == dealer:
        # TRANSLATORS: the dealer's mark on the table (D for dealer)
        marks += " " + _("(D)")
    if token == seat:
        marks += " ●"
    title = f" {shorten(name, bw - 4 - len(marks))}{marks} "
    top = Text("╭", style=border)
    top.append(title, style="bold yellow" if to_move else "bold")
    top.append("─" * max(bw - 2 - cell_len(title), 0) + "╮", style=border)
    mid = Text("│ ", style=border)
    body = Text()
    if move is not None:
        card = card_of(deck, move)
        body.append_text(card_face(deck, card, "winner" if seat == winner else ""))
        if is_declared_high(deck, move):
            body.append(" " + _("high"), style="bold")
        elif deck.declare_mask >> card & 1:
            body.append(" " + _("low"), style="bold")
        if led and body.cell_len + cell_len(" " + _("led")) <= bw - 4:
            body.append(" " + _("led"), style="italic")
        if seat == winner:
            takes = " ★ " + _("takes it")
            room = bw - 4 - body.cell_len
            body.append(takes if cell_len(takes) <= room else " ★", style="bold green")
    elif to_move:
        if seat == s.seat:
            turn = "▶ " + _("your turn")
            body.append(turn if cell_len(turn) <= bw - 4 else "▶ " + _("play"), style="bold yellow")
        elif scene.bot_pending:
            body.append(_("thinking…"), style="italic yellow")
    body.truncate(bw - 4)
    mid.append_text(body)
    mid.append(" " * max(bw - 2 - mid.cell_len, 0))
    mid.append(" │", style=border)
    if ended is None:  # the total so far counts the hand in play ("100 pts · total 20" did not)
        run = view.running[seat]
        tot = view.totals[seat] + run
    else:  # the hand as scored: its last trick and any moon included
        run, tot = ended.breakdown.points[seat], ended.totals[seat]
    stats = " " + _("{points} pts · total {total}").format(points=run, total=tot) + " "
    if cell_len(stats) > bw - 3:
        stats = " " + _("{points} pts · tot {total}").format(points=run, total=tot) + " "
    if cell_len(stats) > bw - 3:
        stats = " " + _("{points} pts").format(points=run) + " "
    bottom = Text("╰", style=border)
    bottom.append(stats, style="bold" if run else "")
    bottom.append("─" * max(bw - 2 - cell_len(stats), 0) + "╯", style=border)
    return [top, mid, bottom]


def centre_lines(
    session: Session, view: View, winner: int, ended: HandEnd | None = None
) -> list[Text]:
    """The middle of the table: the trick and the led suit, who took the last one, the token;
    at the end of a hand its last trick, and that the hand is over."""
    s = session
    g = s.game
    deck = g.deck
    lines: list[Text] = []
    if ended is not None:
        last = _("Last trick of hand {number}").format(number=ended.index + 1)
        lines.append(Text(last, style="bold"))
        lines.append(_taken_line(s, ended.trick.winner, ended.trick.cost))
        if ended.breakdown.moon >= 0:
            moon = _("{name} shot the moon!").format(name=s.names[ended.breakdown.moon])
            lines.append(Text(moon, style="bold"))
        if not g.is_over():
            lines.append(Text(_("Enter: the points of the hand"), style="yellow"))
            return lines
    if g.is_over():
        winners = g.winners()
        lines.append(Text(_("The game is over"), style="bold"))
        if winners == [s.seat]:
            lines.append(Text(_("You win!"), style="bold yellow"))
        else:
            who = both([s.names[w] for w in winners])
            win = ngettext("{names} wins", "{names} win", len(winners)).format(names=who)
            lines.append(Text(win, style="yellow"))
        lines.append(Text(_("p: the score sheet"), style="dim"))
        return lines
    if g.phase == Phase.PASS:
        lines.append(Text(_("Passing cards"), style="bold"))
        target = s.names[s.pass_target()]
        lines.append(Text(pass_words(g.ruleset.passing, g.ruleset.pass_direction)))
        lines.append(Text(_("(yours go to {name})").format(name=target), style="dim"))
        return lines
    if g.phase == Phase.TRUMP:
        lines.append(Text(_("Choosing trump"), style="bold"))
        lines.append(Text(_("{name} picks").format(name=s.names[g.to_move]), style="dim"))
        return lines
    number = len(view.tricks)
    if winner >= 0:
        trick = _("Trick {number} of {total}").format(number=number, total=deck.cards_each)
        lines.append(Text(trick, style="bold"))
        info = last_trick(g)
        lines.append(_taken_line(s, winner, info.cost if info is not None else 0))
    else:
        trick = _("Trick {number} of {total}").format(number=number + 1, total=deck.cards_each)
        lines.append(Text(trick, style="bold"))
        if view.led_suit != NO_SUIT:
            lines.append(Text(_("led {suit}").format(suit=suit_label(deck, view.led_suit))))
        elif g.to_move == s.seat:
            lines.append(Text(_("your lead"), style="yellow"))
        else:
            lines.append(Text(_("{name} leads").format(name=s.names[g.to_move]), style="dim"))
    if view.token >= 0:
        token = _("● {token}: {name}").format(token=token_name(g), name=s.names[view.token])
        lines.append(Text(token, style="dim"))
    return lines


def both(names: list[str]) -> str:
    """Names joined by "and" in the current language."""
    text = names[0] if names else ""
    for name in names[1:]:
        text = _("{first} and {second}").format(first=text, second=name)
    return text


def pass_words(count: int, direction: str) -> str:
    """``3 to the right``: how many cards are passed, and which way."""
    if direction == "left":
        return ngettext("{n} to the left", "{n} to the left", count).format(n=count)
    if direction == "across":
        return ngettext("{n} across", "{n} across", count).format(n=count)
    return ngettext("{n} to the right", "{n} to the right", count).format(n=count)


def _taken_line(session: Session, winner: int, cost: int) -> Text:
    """``Bot 2 takes it  +10``."""
    text = _("{name} take it") if winner == session.seat else _("{name} takes it")
    return Text(text.format(name=session.names[winner]), style="bold green").append(
        f"  +{cost}" if cost else "  " + _("no points"),
        style="bold red" if cost else "green",
    )


# -- your hand and the messages ----------------------------------------------------------------


def hand_lines(scene: Scene, width: int) -> tuple[list[Text], list[Span]]:
    """Your cards, one row per suit (wrapped to ``width``); the legal ones bright, the chosen
    one yellow; and where each card is drawn, for the mouse."""
    s = scene.session
    g = s.game
    deck = g.deck
    view = scene.view
    legal = set(legal_cards(s))
    hint_card = None if scene.hint_move is None else card_of(deck, scene.hint_move)
    mine = view.hand if scene.ended is None else 0  # the next hand waits for the summary
    header = Text(" " + _("Your hand"), style="bold cyan")
    count = mine.bit_count()
    header.append(" · " + ngettext("{n} card", "{n} cards", count).format(n=count), style="cyan")
    if g.phase == Phase.PASS and view.passed:
        chosen = " ".join(card_label(deck, c) for c in cards_of(view.passed))
        header.append(" · " + _("passing {cards}").format(cards=chosen), style="cyan")
    elif view.received and not view.tricks:
        got = " ".join(card_label(deck, c) for c in cards_of(view.received))
        header.append(" · " + _("received {cards}").format(cards=got), style="dim")
    header.append(" " + "─" * max(width - header.cell_len - 1, 0), style="grey37")
    lines = [header]
    spans: list[Span] = []
    for row in sorted_hand(deck, mine):
        line = Text(" ")
        for card in row:
            face_state = "legal" if card in legal or not legal else "dim"
            if view.passed >> card & 1:
                face_state = "passed"
            elif card == scene.cursor and legal:
                face_state = "cursor"
            elif card == hint_card:
                face_state = "hint"
            face = card_face(deck, card, face_state)
            if line.cell_len + face.cell_len > width and line.cell_len > 1:
                lines.append(line)
                line = Text(" ")
            x0 = line.cell_len
            line.append_text(face)
            spans.append((len(lines), x0, line.cell_len, card))
            line.append(" ")
        lines.append(line)
    legend = [w for w in wild_names(deck, mine) if cell_len(w) + 1 <= width]
    if legend:
        lines.append(Text(" " + "  ·  ".join(legend), style="dim"))
        lines[-1].truncate(width, overflow="ellipsis")
    return lines, spans


def message_text(scene: Scene, width: int) -> Text:
    """Two lines: the latest news (or what went wrong), then what to do now."""
    s = scene.session
    g = s.game
    if scene.error:
        first = Text(f" ✗ {scene.error}", style="bold red")
    else:
        first = Text(f" {scene.news}", style="italic")
    second = Text(" ")
    if scene.entry:
        second.append(_("Card:") + " ", style="bold")
        second.append(scene.entry.upper() + "▌", style="bold reverse")
        second.append("   " + _("Backspace corrects, Esc cancels"), style="dim")
    elif g.is_over():
        second.append(_("The game is over: p scores, Ctrl+Q quit."), style="bold")
    elif scene.ended is not None:
        over = _("Hand {number} is over: Enter shows its points.")
        second.append(over.format(number=scene.ended.index + 1), style="bold")
    elif scene.blocked:
        second.append(_("Waiting for your answer…"), style="dim")
    elif s.human_turn():
        view = scene.view
        if g.phase == Phase.PASS:
            left = g.ruleset.passing - view.passed.bit_count()
            more = ngettext("Pass {n} more card to {name}:", "Pass {n} more cards to {name}:", left)
            second.append(
                more.format(n=left, name=s.names[s.pass_target()]) + " ", style="bold yellow"
            )
        elif view.led_suit != NO_SUIT:
            follow = suit_label(g.deck, view.led_suit)
            turn = _("Your turn: follow {suit} if you can.").format(suit=follow)
            second.append(turn, style="bold yellow")
        else:
            second.append(_("Your lead."), style="bold yellow")
        second.append("  " + _("←→ Enter, click, or type a card"), style="yellow")
    else:
        second.append(_("{name} to play…").format(name=s.names[g.to_move]), style="dim")
    first.truncate(width, overflow="ellipsis")
    second.truncate(width, overflow="ellipsis")
    return Text("\n").join([first, second])
