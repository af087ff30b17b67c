"""``salad play --plain``: the same game as plain lines of text on stdin and stdout.

For screen readers, pipes and dumb terminals: when it is your turn it prints the state (your
hand, the legal cards, the trick so far with names, the round and its penalties, the points of
this hand) and reads one line: a card (``qs``, ``10h``), or a command (``help``). Cards are
written as codes (``QS``, ``TH``); a Wild is played high with ``W+`` and low with ``W-``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from salad.errors import CardParseError, SaladError
from salad.events import DEAL, TRUMP
from salad.formats.describe import describe
from salad.moves import move_code, move_label
from salad.sheet.printout import full_sheet
from salad.tui.session import Session
from salad.tui.words import (
    card_examples,
    current_hand,
    hand_codes,
    last_trick,
    penalties_text,
    token_names,
    wild_names,
)
from salad.view import Phase

COMMANDS = (
    ("help", "this list (also ?)"),
    ("hint", "the strongest bot's suggestion"),
    ("undo", "take back your last move and the bots' replies"),
    ("sheet", "the score sheet, hand by hand, with totals"),
    ("last", "the last trick"),
    ("look", "show the table again"),
    ("rules", "the rules of this game in words"),
    ("save [FILE]", "save the game to continue later with salad play --resume FILE"),
    ("quit", "stop playing (the game is saved first when --save was given)"),
)
VERBS = ("play", "pass", "lead", "trump")
"""Words a move may start with: ``play 5h`` is ``5h``."""
YES = ("y", "yes", "q", "quit")


class PlainGame:
    """The line-mode loop around a :class:`Session`."""

    def __init__(
        self,
        session: Session,
        stdin: TextIO,
        stdout: TextIO,
        stderr: TextIO,
        brief: bool = False,
    ) -> None:
        self.s = session
        self.brief = brief
        """One line per card, and one line of state at your turn (for screen readers)."""
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        try:
            self.interactive = stdin.isatty()
        except (AttributeError, ValueError):
            self.interactive = False

    # -- output ----------------------------------------------------------------------------
    def say(self, *lines: str) -> None:
        for line in lines:
            self.stdout.write(line + "\n")
        self.stdout.flush()

    def prompt(self, text: str) -> None:
        self.stdout.write(text + (" " if self.interactive else "\n"))
        self.stdout.flush()

    # -- the loop ---------------------------------------------------------------------------
    def run(self, resumed: bool = False) -> int:
        s = self.s
        g = s.game
        others = ", ".join(f"{s.names[x]} ({s.bot_names[x]})" for x in sorted(s.bots))
        first, second = card_examples(s.deck)
        self.say(
            f"{g.ruleset.title}, {g.players} players, seed {g.seed}. "
            f"You are seat {s.seat}; playing with {others}.",
            f"Type a card to play it (e.g. {first.lower()}, {second.lower()}), "
            "or help for the commands.",
        )
        if resumed:
            self.say(f"Resumed from {s.save_path}.")
        start = max((i for i, e in enumerate(g.log) if e[0] == DEAL), default=0)
        self.say(*s.narrate([e for e in g.log[start:] if e[0] in (DEAL, TRUMP)], symbols=False))
        shown = -1  # the log length when the state was last shown
        while True:
            if g.is_over():
                return self.finish()
            if not s.human_turn():
                seat = g.to_move
                move = s.bot_choose(seat, g.view(seat))
                self.say(*s.narrate(s.play(move), symbols=False))
                continue
            if shown != len(g.log):
                self.show_brief() if self.brief else self.show_state()
                shown = len(g.log)
            self.prompt(self.prompt_text())
            line = self.stdin.readline()
            if not line:
                return self.end_of_input()
            result = self.handle(line.strip())
            if result is not None:
                return result

    def prompt_text(self) -> str:
        phase = self.s.game.phase
        if phase == Phase.TRUMP:
            return "Your trump (a suit letter, or help):"
        if phase == Phase.PASS:
            return "Your pass (a card, or help):"
        return "Your play (a card, or help):"

    def end_of_input(self) -> int:
        g = self.s.game
        note = ""
        if self.s.save_path is not None and not g.is_over():
            try:
                path = self.s.save()
                note = f"; saved to {path}"
            except SaladError as exc:
                note = f"; not saved: {exc}"
        self.stderr.write(f"end of input: the game stops unfinished{note}\n")
        self.stderr.flush()
        return 1

    # -- input -----------------------------------------------------------------------------
    def handle(self, line: str) -> int | None:
        """One line of input; an exit status to stop with, else None."""
        if not line:
            return None
        word, _, rest = line.partition(" ")
        command = word.lower()
        if command in ("help", "?", "h"):
            self.help()
        elif command == "hint":
            self.hint()
        elif command == "undo":
            self.undo()
        elif command in ("sheet", "score", "scores"):
            self.sheet()
        elif command == "last":
            self.last()
        elif command in ("look", "state", "hand"):
            self.show_state()
        elif command == "rules":
            self.say(describe(self.s.game.ruleset, self.s.players))
        elif command == "save":
            self.save(rest.strip())
        elif command in ("quit", "exit", "q"):
            return self.quit()
        elif command in VERBS and rest.strip():
            self.moves(rest)
        else:
            self.moves(line)
        return None

    def moves(self, line: str) -> None:
        s = self.s
        words = line.replace(",", " ").split()
        if s.game.phase != Phase.PASS and len(words) > 1:
            self.say(f"One at a time, please: {words[0]} or {words[1]}, not both.")
            return
        for word in words:
            if not s.human_turn():
                break
            try:
                move = s.parse(word)
            except SaladError as exc:
                self.say(self.reason(word, exc))
                return
            self.say(*s.narrate(s.play(move), symbols=False))

    def reason(self, word: str, exc: SaladError) -> str:
        """Why ``word`` was not played: it names no card (or suit), or the rules refuse it."""
        if isinstance(exc, CardParseError):
            if self.s.game.phase == Phase.TRUMP:
                return f"{word!r} is not a suit: type one of {self.legal_text()}."
            first, second = card_examples(self.s.deck)
            return f"{word!r} is not a card: type e.g. {first}, {second} (or help)."
        return f"You cannot play {word.upper()}: {exc}."

    # -- what is shown -----------------------------------------------------------------------
    def legal_text(self) -> str:
        s = self.s
        codes = [move_code(s.deck, m) for m in s.game.legal_moves()]
        return " ".join(dict.fromkeys(codes))

    def show_state(self) -> None:
        s = self.s
        g = s.game
        deck = g.deck
        view = s.view()
        hand = current_hand(g)
        lines = [
            f"--- Hand {hand.index + 1} of {len(g.rules.hands)}: {hand.round.name} "
            f"({penalties_text(hand)})."
        ]
        if view.trump >= 0:
            t = deck.suits[view.trump]
            lines.append(f"Trump: {t.letter} ({t.name}).")
        if g.phase == Phase.TRUMP:
            lines.append("You are in last place: pick the trump suit for this hand.")
            lines.append("Suits: " + ", ".join(f"{x.letter} {x.name}" for x in deck.suits) + ".")
        elif g.phase == Phase.PASS:
            chosen = deck.format_mask(view.passed)
            left = g.ruleset.passing - view.passed.bit_count()
            lines.append(
                f"Pass {g.ruleset.passing} cards to {s.names[s.pass_target()]}: "
                f"{left} more to choose" + (f" (chosen: {chosen})." if chosen else ".")
            )
        else:
            lines.append(f"Trick {len(view.tricks) + 1} of {deck.cards_each}.")
            if view.trick:
                played = ", ".join(
                    f"{s.names[(view.leader + i) % g.players]} {move_label(deck, m, False)}"
                    for i, m in enumerate(view.trick)
                )
                lines.append(f"Trick so far: {played}.")
            else:
                lines.append("You lead.")
        lines.append(f"Your hand: {hand_codes(deck, view.hand & ~view.passed)}")
        lines.append(f"Legal: {self.legal_text()}")
        lines.append("Points this hand: " + self.points(view.running) + ".")
        lines.append("Totals: " + self.points(view.totals) + ".")
        self.say(*lines)

    def show_brief(self) -> None:
        """The state in one line: the phase, the trick so far, the legal cards."""
        s = self.s
        g = s.game
        view = s.view()
        deck = g.deck
        if g.phase == Phase.TRUMP:
            what = "Pick the trump suit"
        elif g.phase == Phase.PASS:
            left = g.ruleset.passing - view.passed.bit_count()
            what = f"Pass {left} to {s.names[s.pass_target()]}"
        elif view.trick:
            played = ", ".join(
                f"{s.names[(view.leader + i) % g.players]} {move_label(deck, m, False)}"
                for i, m in enumerate(view.trick)
            )
            what = f"Trick {len(view.tricks) + 1}: {played}"
        else:
            what = f"Trick {len(view.tricks) + 1}: you lead"
        self.say(f"{what}. Legal: {self.legal_text()}.")

    def points(self, values: tuple[int, ...]) -> str:
        return ", ".join(f"{self.s.names[x]} {p}" for x, p in enumerate(values))

    def help(self) -> None:
        s = self.s
        deck = s.deck
        first, second = card_examples(deck)
        symbol = deck.symbol(deck.parse(first))
        declared = [w.code for w in deck.spec.wilds if deck.declare_mask >> deck.parse(w.code) & 1]
        wild = (
            f" (a {declared[0]}: {declared[0]}+ plays it high, {declared[0]}- low)"
            if declared
            else ""
        )
        goal = (
            "Collect the penalties: the highest total wins."
            if s.game.ruleset.highest_wins
            else "Avoid the penalties: the lowest total wins."
        )
        self.say(
            f"Type a card to play it: {first.lower()}, {second.lower()}, {symbol}{wild} "
            f"(play {second.lower()} works too); when passing, one or more cards; when "
            "picking trump, a suit letter.",
            goal,
            *(f"The {t}." for t in token_names(s.game)),
            *(f"Card {w}." for w in wild_names(deck)),
            "Commands:",
            *(f"  {name:<12} {what}" for name, what in COMMANDS),
        )

    def hint(self) -> None:
        s = self.s
        found = s.hint(s.view())
        self.say(f"Hint ({s.hint_bot_name}): {move_code(s.deck, found.move)}: {found.reason}.")

    def undo(self) -> None:
        try:
            count = self.s.undo()
        except SaladError as exc:
            self.say(f"Cannot undo: {str(exc).removeprefix('undo: ')}.")
            return
        self.say(f"Took back {count} move{'s' if count != 1 else ''}.")

    def sheet(self) -> None:
        g = self.s.game
        self.say(full_sheet(g, self.s.names))
        if not g.is_over():
            self.say(f"This hand so far: {self.points(tuple(g.running_points()))}.")

    def last(self) -> None:
        s = self.s
        info = last_trick(s.game)
        if info is None:
            self.say("No trick has been played yet.")
            return
        cards = ", ".join(
            f"{s.names[info.seat(i, s.players)]} {move_label(s.deck, m, False)}"
            for i, m in enumerate(info.moves)
        )
        cost = f"+{info.cost}" if info.cost else "no points"
        self.say(
            f"Last trick (hand {info.hand_index + 1}, trick {info.number + 1}): {cards}; "
            f"{s.names[info.winner]} took it ({cost})."
        )

    def save(self, name: str) -> None:
        try:
            path = self.s.save(Path(name) if name else None)
        except SaladError as exc:
            self.say(f"Not saved: {exc}")
            return
        self.say(f"Saved to {path}; continue with: salad play --resume {path}")

    def quit(self) -> int | None:
        """Stop (saving first when the game has a file); an unsaved game in progress asks
        first. The exit status, or None to play on."""
        s = self.s
        if s.save_path is not None and not s.game.is_over():
            try:
                path = s.save()
            except SaladError as exc:
                self.stderr.write(f"error: not saved: {exc}\n")
                self.stderr.flush()
                return 1
            self.say(f"Saved to {path}; continue with: salad play --resume {path}")
        elif not s.game.is_over() and s.can_undo():
            self.prompt("The game is not saved. Quit anyway? (y to quit, n to play on)")
            line = self.stdin.readline()
            if not line:
                return self.end_of_input()
            if line.strip().lower() not in YES:
                self.say("Playing on (save FILE saves the game).")
                return None
        self.say("Goodbye.")
        return 0

    def finish(self) -> int:
        """The final scores; the finished game saved when it has a file. The exit status."""
        self.say("", "Final scores:", full_sheet(self.s.game, self.s.names), "")
        self.say(*self.s.result_lines())
        if self.s.save_path is not None:
            try:
                self.say(f"The finished game is saved in {self.s.save()}.")
            except SaladError as exc:
                self.stderr.write(f"error: not saved: {exc}\n")
                self.stderr.flush()
                return 1
        return 0


def run_plain(
    session: Session,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    resumed: bool = False,
    brief: bool = False,
) -> int:
    """Play the session on text streams (the process's by default); the exit status.
    ``brief``: one line per card (see :class:`PlainGame`)."""
    game = PlainGame(session, stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr, brief)
    return game.run(resumed)
