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
from salad.locale import N_, _, ngettext, pgettext
from salad.locale import cards as shown
from salad.sheet.printout import full_sheet
from salad.tui.session import Session
from salad.tui.words import (
    card_examples,
    current_hand,
    hand_codes,
    last_trick,
    move_label,
    penalties_text,
    token_names,
    wild_names,
)
from salad.view import Phase

COMMANDS = (
    ("help", N_("this list (also ?)")),
    ("hint", N_("the strongest bot's suggestion")),
    ("undo", N_("take back your last move and the bots' replies")),
    ("sheet", N_("the score sheet, hand by hand, with totals")),
    ("last", N_("the last trick")),
    ("look", N_("show the table again")),
    ("rules", N_("the rules of this game in words")),
    ("save", N_("save the game to continue later with salad play --resume FILE")),
    ("quit", N_("stop playing (the game is saved first when --save was given)")),
)
"""The commands (their English words always work) and what they do."""
ALIASES = {
    "help": ("help", "?", "h"),
    "sheet": ("sheet", "score", "scores"),
    "look": ("look", "state", "hand"),
    "quit": ("quit", "exit", "q"),
}
VERBS = ("play", "pass", "lead", "trump")
"""Words a move may start with: ``play 5h`` is ``5h``."""
YES = ("y", "yes", "q", "quit")


def command_word(command: str) -> str:
    """A command's word in the current language (``aide`` for ``help`` in French)."""
    words = {
        "help": pgettext("command", "help"),
        "hint": pgettext("command", "hint"),
        "undo": pgettext("command", "undo"),
        "sheet": pgettext("command", "sheet"),
        "last": pgettext("command", "last"),
        "look": pgettext("command", "look"),
        "rules": pgettext("command", "rules"),
        "save": pgettext("command", "save"),
        "quit": pgettext("command", "quit"),
    }
    return words[command]


def local_words() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The verbs a move may start with and the answers that say yes, in the current language
    (the English ones too)."""
    verbs = (
        pgettext("command", "play"),
        pgettext("command", "pass"),
        pgettext("command", "lead"),
        pgettext("command", "trump"),
    )
    yes = (pgettext("answer", "y"), pgettext("answer", "yes"), command_word("quit"))
    return VERBS + verbs, YES + yes


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
    def run(self, resumed: Path | None = None) -> int:
        """Play to the end or until the player stops; ``resumed``: the file the game was
        taken from. The exit status."""
        s = self.s
        g = s.game
        others = ", ".join(f"{s.names[x]} ({s.bot_names[x]})" for x in sorted(s.bots))
        first, second = card_examples(s.deck)
        self.say(
            _(
                "{title}, {players} players, seed {seed}. "
                "You are seat {seat}; playing with {others}."
            ).format(
                title=_(g.ruleset.title), players=g.players, seed=g.seed, seat=s.seat, others=others
            ),
            _(
                "Type a card to play it (e.g. {first}, {second}), or {help} for the commands."
            ).format(first=first.lower(), second=second.lower(), help=command_word("help")),
        )
        if resumed is not None:
            self.say(_("Resumed from {path}.").format(path=resumed))
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
        help_ = command_word("help")
        if phase == Phase.TRUMP:
            return _("Your trump (a suit letter, or {help}):").format(help=help_)
        if phase == Phase.PASS:
            return _("Your pass (a card, or {help}):").format(help=help_)
        return _("Your play (a card, or {help}):").format(help=help_)

    def end_of_input(self) -> int:
        g = self.s.game
        note = ""
        if self.s.save_path is not None and not g.is_over():
            try:
                path = self.s.save()
                note = _("end of input: the game stops unfinished; saved to {path}").format(
                    path=path
                )
            except SaladError as exc:
                note = _("end of input: the game stops unfinished; not saved: {reason}").format(
                    reason=exc
                )
        elif not g.is_over() and self.s.keeping:
            note = _(
                "end of input: the game stops unfinished; kept in {path}: "
                "salad play --continue carries on with it"
            ).format(path=self.s.kept)
        self.stderr.write((note or _("end of input: the game stops unfinished")) + "\n")
        self.stderr.flush()
        return 1

    # -- input -----------------------------------------------------------------------------
    def handle(self, line: str) -> int | None:
        """One line of input; an exit status to stop with, else None."""
        if not line:  # it re-asked without a word
            self.say(
                _("Type a card to play it, or {help} for the commands.").format(
                    help=command_word("help")
                )
            )
            return None
        word, _space, rest = line.partition(" ")
        command = self.command(word.lower())
        verbs, _yes = local_words()
        if command == "help":
            self.help()
        elif command == "hint":
            self.hint()
        elif command == "undo":
            self.undo()
        elif command == "sheet":
            self.sheet()
        elif command == "last":
            self.last()
        elif command == "look":
            self.show_state()
        elif command == "rules":
            self.say(describe(self.s.game.ruleset, self.s.players))
        elif command == "save":
            self.save(rest.strip())
        elif command == "quit":
            return self.quit()
        elif word.lower() in verbs and rest.strip():
            self.moves(rest)
        else:
            self.moves(line)
        return None

    def command(self, word: str) -> str:
        """The command ``word`` names (in English or the current language), or ''."""
        for name, _what in COMMANDS:
            if word in (*ALIASES.get(name, (name,)), command_word(name).lower()):
                return name
        return ""

    def moves(self, line: str) -> None:
        s = self.s
        words = line.replace(",", " ").split()
        if s.game.phase != Phase.PASS and len(words) > 1:
            self.say(
                _("One at a time, please: {first} or {second}, not both.").format(
                    first=words[0], second=words[1]
                )
            )
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
                return _("'{text}' is not a suit: type one of {suits}.").format(
                    text=word, suits=self.legal_text()
                )
            first, second = card_examples(self.s.deck)
            return _("'{text}' is not a card: type e.g. {first}, {second} (or {help}).").format(
                text=word, first=first, second=second, help=command_word("help")
            )
        return _("You cannot play {card}: {reason}.").format(card=word.upper(), reason=exc)

    # -- what is shown -----------------------------------------------------------------------
    def legal_text(self) -> str:
        s = self.s
        codes = [shown.move_code(s.deck, m) for m in s.game.legal_moves()]
        return " ".join(dict.fromkeys(codes))

    def show_state(self) -> None:
        s = self.s
        g = s.game
        deck = g.deck
        view = s.view()
        hand = current_hand(g)
        lines = [
            "--- "
            + _("Hand {number} of {total}: {round} ({penalties}).").format(
                number=hand.index + 1,
                total=len(g.rules.hands),
                round=_(hand.round.name),
                penalties=penalties_text(hand),
            )
        ]
        if view.trump >= 0:
            t = deck.suits[view.trump]
            lines.append(_("Trump: {suit}.").format(suit=f"{shown.suit_letter(t)} ({_(t.name)})"))
        if g.phase == Phase.TRUMP:
            lines.append(_("You are in last place: pick the trump suit for this hand."))
            suits = ", ".join(f"{shown.suit_letter(x)} {_(x.name)}" for x in deck.suits)
            lines.append(_("Suits: {suits}.").format(suits=suits))
        elif g.phase == Phase.PASS:
            chosen = shown.mask_text(deck, view.passed)
            left = g.ruleset.passing - view.passed.bit_count()
            if chosen:
                text = _("Pass {count} cards to {name}: {left} more to choose (chosen: {cards}).")
            else:
                text = _("Pass {count} cards to {name}: {left} more to choose.")
            lines.append(
                text.format(
                    count=g.ruleset.passing, name=s.names[s.pass_target()], left=left, cards=chosen
                )
            )
        else:
            lines.append(
                _("Trick {number} of {total}.").format(
                    number=len(view.tricks) + 1, total=deck.cards_each
                )
            )
            if view.trick:
                played = ", ".join(
                    f"{s.names[(view.leader + i) % g.players]} {move_label(deck, m, False)}"
                    for i, m in enumerate(view.trick)
                )
                lines.append(_("Trick so far: {cards}.").format(cards=played))
            else:
                lines.append(_("You lead."))
        hand_text = hand_codes(deck, view.hand & ~view.passed)
        lines.append(_("Your hand: {cards}").format(cards=hand_text))
        lines.append(_("Legal: {cards}").format(cards=self.legal_text()))
        lines.append(_("Points this hand: {points}.").format(points=self.points(view.running)))
        lines.append(_("Totals: {points}.").format(points=self.points(view.totals)))
        self.say(*lines)

    def show_brief(self) -> None:
        """The state in one line: the phase, the trick so far, the legal cards."""
        s = self.s
        g = s.game
        view = s.view()
        deck = g.deck
        if g.phase == Phase.TRUMP:
            what = _("Pick the trump suit")
        elif g.phase == Phase.PASS:
            left = g.ruleset.passing - view.passed.bit_count()
            what = _("Pass {left} to {name}").format(left=left, name=s.names[s.pass_target()])
        elif view.trick:
            played = ", ".join(
                f"{s.names[(view.leader + i) % g.players]} {move_label(deck, m, False)}"
                for i, m in enumerate(view.trick)
            )
            what = _("Trick {number}: {cards}").format(number=len(view.tricks) + 1, cards=played)
        else:
            what = _("Trick {number}: you lead").format(number=len(view.tricks) + 1)
        self.say(_("{what}. Legal: {cards}.").format(what=what, cards=self.legal_text()))

    def points(self, values: tuple[int, ...]) -> str:
        return ", ".join(f"{self.s.names[x]} {p}" for x, p in enumerate(values))

    def help(self) -> None:
        s = self.s
        deck = s.deck
        first, second = card_examples(deck)
        symbol = shown.short(deck, shown.parse(deck, first))
        declared = [w.code for w in deck.spec.wilds if deck.declare_mask >> deck.parse(w.code) & 1]
        wild = (
            " " + _("(a {card}: {card}+ plays it high, {card}- low)").format(card=declared[0])
            if declared
            else ""
        )
        goal = (
            _("Collect the penalties: the highest total wins.")
            if s.game.ruleset.highest_wins
            else _("Avoid the penalties: the lowest total wins.")
        )
        verb = pgettext("command", "play")
        names = {
            name: command_word(name) + (" [" + _("FILE") + "]" if name == "save" else "")
            for name, _what in COMMANDS
        }
        width = max(12, *(len(n) for n in names.values()))
        self.say(
            _(
                "Type a card to play it: {first}, {second}, {symbol}{wild} ({verb} {second} "
                "works too); when passing, one or more cards; when picking trump, a suit letter."
            ).format(
                first=first.lower(), second=second.lower(), symbol=symbol, wild=wild, verb=verb
            ),
            goal,
            *(_("The {token}.").format(token=t) for t in token_names(s.game)),
            *(_("Card {card}.").format(card=w) for w in wild_names(deck)),
            _("Commands:"),
            *(f"  {names[name]:<{width}} {_(what)}" for name, what in COMMANDS),
        )

    def hint(self) -> None:
        s = self.s
        found = s.hint(s.view())
        self.say(
            _("Hint ({bot}): {card}: {reason}.").format(
                bot=s.hint_bot_name,
                card=shown.move_code(s.deck, found.move),
                reason=s.hint_reason(found),
            )
        )

    def undo(self) -> None:
        try:
            count = self.s.undo()
        except SaladError as exc:
            reason = str(exc).removeprefix("undo: ").removeprefix(_("undo: "))
            self.say(_("Cannot undo: {reason}.").format(reason=reason))
            return
        self.say(ngettext("Took back {n} move.", "Took back {n} moves.", count).format(n=count))

    def sheet(self) -> None:
        g = self.s.game
        self.say(full_sheet(g, self.s.names))
        if not g.is_over():
            points = self.points(tuple(g.running_points()))
            self.say(_("This hand so far: {points}.").format(points=points))

    def last(self) -> None:
        s = self.s
        info = last_trick(s.game)
        if info is None:
            self.say(_("No trick has been played yet."))
            return
        cards = ", ".join(
            f"{s.names[info.seat(i, s.players)]} {move_label(s.deck, m, False)}"
            for i, m in enumerate(info.moves)
        )
        cost = f"+{info.cost}" if info.cost else _("no points")
        self.say(
            _("Last trick (hand {hand}, trick {trick}): {cards}; {name} took it ({cost}).").format(
                hand=info.hand_index + 1,
                trick=info.number + 1,
                cards=cards,
                name=s.names[info.winner],
                cost=cost,
            )
        )

    def save(self, name: str) -> None:
        try:
            path = self.s.save(Path(name) if name else None)
        except SaladError as exc:
            self.say(_("Not saved: {reason}").format(reason=exc))
            return
        self.say(_("Saved to {path}; continue with: salad play --resume {path}").format(path=path))

    def quit(self) -> int | None:
        """Stop (saving first when the game has a file); an unsaved game in progress asks
        first. The exit status, or None to play on."""
        s = self.s
        if s.save_path is not None and not s.game.is_over():
            try:
                path = s.save()
            except SaladError as exc:
                self.stderr.write(_("error: not saved: {reason}").format(reason=exc) + "\n")
                self.stderr.flush()
                return 1
            self.say(
                _("Saved to {path}; continue with: salad play --resume {path}").format(path=path)
            )
        elif not s.game.is_over() and s.can_undo():
            self.prompt(_("The game is not saved. Quit anyway? (y to quit, n to play on)"))
            line = self.stdin.readline()
            if not line:
                return self.end_of_input()
            if line.strip().lower() not in local_words()[1]:
                self.say(
                    _("Playing on ({save} FILE saves the game).").format(save=command_word("save"))
                )
                return None
        if s.save_path is None and not s.game.is_over() and s.keeping:
            self.say(
                _("The game is kept in {path}: salad play --continue carries on with it.").format(
                    path=s.kept
                )
            )
        self.say(_("Goodbye."))
        return 0

    def finish(self) -> int:
        """The final scores; the finished game saved when it has a file. The exit status."""
        self.say("", _("Final scores:"), full_sheet(self.s.game, self.s.names), "")
        self.say(*self.s.result_lines())
        if self.s.save_path is not None:
            try:
                self.say(_("The finished game is saved in {path}.").format(path=self.s.save()))
            except SaladError as exc:
                self.stderr.write(_("error: not saved: {reason}").format(reason=exc) + "\n")
                self.stderr.flush()
                return 1
        return 0


def run_plain(
    session: Session,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    resumed: Path | None = None,
    brief: bool = False,
) -> int:
    """Play the session on text streams (the process's by default); the exit status.
    ``brief``: one line per card (see :class:`PlainGame`)."""
    game = PlainGame(session, stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr, brief)
    return game.run(resumed)
