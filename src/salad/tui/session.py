"""The game session of ``salad play``, shared by both front ends: a game, the human's seat, the
bots, undo, hints, and saving to or resuming from a record file.

>>> from salad.formats.rules import load_ruleset
>>> s = Session.new(load_ruleset("canadian"), 4, seat=0, bots="random", seed=1)
>>> s.names
['You', 'Random 1', 'Random 2', 'Random 3']
>>> s.round_line()
'Hand 1 of 6: No Tricks — Tricks 10 each'
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from platformdirs import user_data_path

from salad.bots import Bot, bot_factory, bot_word, make_bot, reference_only
from salad.bots.assist import HINT_BOT, Hint, hint, mover, takeback_count
from salad.bots.registry import check_move_time
from salad.bots.seeds import bot_seed
from salad.cards import Deck
from salad.engine import Game
from salad.errors import IllegalMoveError, RecordError, SaladError
from salad.formats.records import (
    Record,
    game_from_record,
    load_records,
    record_from_game,
    write_records,
)
from salad.locale import N_, _
from salad.locale import cards as shown
from salad.moves import Move
from salad.ruleset import Ruleset
from salad.tui.words import current_hand, narrate, penalties_text, result_lines
from salad.view import Phase, View

HUMAN_NAME = N_("You")
"""The human's name at the table (in the current language where shown)."""

REFUSALS = {
    "not-held": N_("you do not hold that card"),
    "not-declarable": N_("you may only declare a Wild high"),
    "not-passable": N_("you can only pass a card you hold and have not chosen"),
    "must-pick-trump": N_("you must pick a trump suit"),
    "not-a-move": N_("you cannot make that move now"),
}
"""The engine's reasons (:data:`salad.errors.REASONS`) said to the player."""


def illegal_reason(exc: IllegalMoveError, led: str = "") -> str:
    """The engine's reason said to the player: ``you must follow hearts`` (``led``: the led
    suit's name, for that reason)."""
    if exc.reason == "must-follow" and led:
        return _("you must follow {suit}").format(suit=led.lower())
    if exc.reason in REFUSALS:
        return _(REFUSALS[exc.reason])
    return _("you cannot make that move now")


def check_save_path(path: Path) -> Path:
    """Refuse at once a save file that could not be written: its folder missing or not
    writable, or the path a folder itself (``--save`` is checked when the game starts)."""
    folder = path.parent
    if path.is_dir():
        raise SaladError(_("save: {path} is a folder, not a file").format(path=path))
    if not folder.is_dir():
        raise SaladError(
            _("save: {path}: the folder {folder} does not exist").format(path=path, folder=folder)
        )
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise SaladError(_("save: {path}: not writable").format(path=path))
    return path


class MoveRefused(SaladError):
    """A move of the human that the rules refuse, in words for the player."""


def kept_games() -> Path:
    """The folder where each game in progress without a ``--save`` file is kept after every
    move, for ``salad play --continue``: in the user's data directory (``$XDG_DATA_HOME/salad``
    on Linux). A game's file goes when the game ends; a new game never takes another's."""
    return user_data_path("salad", appauthor=False) / "games-in-progress"


def last_kept_game() -> Path | None:
    """The game in progress kept most recently (:func:`kept_games`), if any."""
    found = sorted(kept_games().glob("*.json"), key=lambda p: (p.stat().st_mtime, p.name))
    return found[-1] if found else None


# -- the session ------------------------------------------------------------------------------


class Session:
    """One human at a table of bots: the game, who sits where, and what the front ends need."""

    def __init__(
        self,
        game: Game,
        seat: int,
        bot_names: Sequence[str],
        names: Sequence[str],
        move_time: float | None = None,
        save_path: Path | None = None,
    ) -> None:
        n = game.players
        if not 0 <= seat < n:
            raise SaladError(seat_error(seat, n))
        self.game = game
        self.seat = seat
        self.bot_names = list(bot_names)
        self.names = list(names)
        check_move_time(move_time)
        self.move_time = move_time
        self.save_path = save_path
        """The user's file of the game (``--save``, ``--resume``, the ``save`` command)."""
        started = time.strftime("%Y%m%d-%H%M%S")
        self.kept = kept_games() / f"{started}-{secrets.token_hex(3)}.json"
        """Where the game is kept after every move while it has no file of the user's."""
        self.keeping = False
        """Whether :attr:`kept` holds this game."""
        self.bots: dict[int, Bot] = {}
        for s in range(n):
            if s != seat:
                seed = bot_seed("play", game.seed, s)
                self.bots[s] = make_bot(self.bot_names[s], seed, **self._options())

    def _options(self) -> dict[str, Any]:
        return {} if self.move_time is None else {"move_time": self.move_time}

    # -- building ------------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        ruleset: Ruleset,
        players: int,
        seat: int = 0,
        bots: str = "expert",
        seed: int | None = None,
        move_time: float | None = None,
        save_path: Path | None = None,
    ) -> Session:
        ruleset.check_players(players)
        if save_path is not None:
            check_save_path(save_path)
        if not 0 <= seat < players:
            raise SaladError(seat_error(seat, players))
        game = Game(ruleset, players, seed=seed)
        bot_names = seat_bots(bots, players, seat)
        return cls(game, seat, bot_names, default_names(bot_names, seat), move_time, save_path)

    @classmethod
    def resume(
        cls,
        path: Path,
        seat: int | None = None,
        bots: str | None = None,
        move_time: float | None = None,
        save_path: Path | None = None,
    ) -> Session:
        """The game saved in ``path``, continued exactly where it stopped."""
        if save_path is not None:
            check_save_path(save_path)
        records = load_records(path)
        if len(records) != 1:
            raise RecordError(f"{path}: holds {len(records)} games; resume needs a file with one")
        record = records[0]
        try:
            game = game_from_record(record)
        except RecordError as exc:
            raise RecordError(f"{path}: {exc}") from None
        if not game.auto_deal and not game.is_over():
            raise RecordError(
                f"{path}: its hands were dealt by hand, not from a seed; it cannot go on here"
            )
        entries = record.get("players", [])
        n = game.players
        if seat is None:
            seat = next((s for s, e in enumerate(entries) if not e.get("bot")), 0)
        if not 0 <= seat < n:
            raise SaladError(seat_error(seat, n))
        if bots is not None:
            bot_names = seat_bots(bots, n, seat)
        else:
            bot_names = []
            for s, e in enumerate(entries):
                name = e.get("bot")
                bot_names.append("" if s == seat else str(name or "expert"))
            for s, name in enumerate(bot_names):
                if s != seat:
                    bot_factory(name)
                    if reference_only(name):
                        raise SaladError(
                            _("bots: {name} sees every hand; it plays only in the lab").format(
                                name=name
                            )
                        )
        names = [str(e.get("name") or f"Seat {s}") for s, e in enumerate(entries)]
        defaults = default_names(bot_names, seat)
        for s in range(n):
            if s != seat and (bots is not None or not entries[s].get("bot")):
                names[s] = defaults[s]  # a new bot in this seat
        if entries[seat].get("bot"):
            names[seat] = _(HUMAN_NAME)
        kept = path.parent.resolve() == kept_games().resolve()
        if save_path is None and not kept:
            save_path = path  # a file of the user's: the game goes on in it
        session = cls(game, seat, bot_names, names, move_time, save_path)
        if kept:  # it goes on in its own kept file
            session.kept, session.keeping = path, True
        return session

    # -- state ---------------------------------------------------------------------------------
    @property
    def deck(self) -> Deck:
        return self.game.deck

    @property
    def players(self) -> int:
        return self.game.players

    def view(self) -> View:
        return self.game.view(self.seat)

    def human_turn(self) -> bool:
        g = self.game
        return g.to_move == self.seat and g.phase in (Phase.PLAY, Phase.PASS, Phase.TRUMP)

    def bot_turn(self) -> bool:
        g = self.game
        return not g.is_over() and g.to_move in self.bots

    def round_line(self, width: int = 0) -> str:
        g = self.game
        hand = current_hand(g)
        head = _("Hand {number} of {total}: {round}").format(
            number=hand.index + 1, total=len(g.rules.hands), round=_(hand.round.name)
        )
        room = max(width - len(head) - 3, 1) if width else 0
        return f"{head} — {penalties_text(hand, room)}"

    def pass_target(self) -> int:
        rs = self.game.ruleset
        n = self.players
        return (self.seat + (rs.pass_offset or n // 2)) % n

    def name(self, seat: int) -> str:
        return self.names[seat]

    # -- moves ---------------------------------------------------------------------------------
    def parse(self, text: str) -> Move:
        """A typed move of the human, checked: ``MoveRefused`` names the reason."""
        move = self.parse_typed(text)
        self.check(move)
        return move

    def parse_typed(self, text: str) -> Move:
        """A move typed in the current language (``DP`` in French), unchecked; a one-line
        :class:`~salad.errors.CardParseError` in the current language names ``text``."""
        g = self.game
        seat = g.to_move
        among = None
        if seat >= 0:
            among = g.hands[seat]
            if g.phase == Phase.PASS:
                among &= ~g.passed[seat]
        return shown.to_move(g.deck, text, trump=g.phase == Phase.TRUMP, among=among)

    def check(self, move: Move) -> None:
        """Raise ``MoveRefused`` with a reason for people unless ``move`` is legal now."""
        g = self.game
        if move in g.legal_moves():
            return
        trial = g.copy()
        try:
            trial.play(move)
        except IllegalMoveError as exc:
            led = g.view(self.seat).led_suit
            suit = _(g.deck.suits[led].name) if led >= 0 else ""
            raise MoveRefused(illegal_reason(exc, suit)) from None
        except SaladError as exc:
            raise MoveRefused(str(exc)) from None
        raise MoveRefused(_("that move is not possible now"))

    def play(self, move: Move | str) -> list[tuple[object, ...]]:
        """Play for the seat to move; the new log entries. The game is then kept (:meth:`keep`)."""
        start = len(self.game.log)
        self.game.play(move)
        self.keep()
        return self.game.log[start:]

    def keep(self) -> bool:
        """Write the game where it survives the program: the user's file if it has one, else
        :attr:`kept` (removed once the game is over, or once it is in the user's file);
        whether it was written (whole, or the last one left: a closed terminal cannot cut it
        short). Best effort: a disk that refuses is not an error of the move (``save`` says
        why)."""
        if self.save_path is None and self.game.is_over():
            self.forget_kept()
            return False
        target = self.save_path or self.kept
        try:
            if target == self.kept:
                target.parent.mkdir(parents=True, exist_ok=True)
            write_records(target, [self.record()])  # whole or not at all
        except (OSError, SaladError):
            return False
        if target == self.kept:
            self.keeping = True
        else:
            self.forget_kept()
        return True

    def forget_kept(self) -> None:
        """The game is over or in the user's file: the kept copy of it goes."""
        if self.keeping:
            self.kept.unlink(missing_ok=True)
            self.keeping = False

    def bot_choose(self, seat: int, view: View) -> Move:
        """The bot's move for ``seat`` from ``view`` (safe to call off the UI thread)."""
        return self.bots[seat].choose(view)

    def hint(self, view: View) -> Hint:
        """The expert's suggestion for the human and why (:func:`salad.bots.assist.hint`;
        slow: call off the UI thread)."""
        seed = bot_seed("play", self.game.seed, "hint", len(self.game.log))
        return hint(view, seed, self.move_time)

    @property
    def hint_bot_name(self) -> str:
        return HINT_BOT

    def hint_reason(self, found: Hint) -> str:
        """The reason of a hint in the current language."""
        return found.reason(self.deck)

    # -- words -------------------------------------------------------------------------------
    def narrate(self, entries: Sequence[tuple[object, ...]], symbols: bool) -> list[str]:
        """New log entries in sentences for the human (:func:`salad.tui.words.narrate`)."""
        return narrate(self.game, self.names, self.seat, entries, symbols)

    def result_lines(self) -> list[str]:
        """The final totals, best first, and who won."""
        return result_lines(self.game, self.names, self.seat)

    def can_undo(self) -> bool:
        return any(mover(e) == self.seat for e in self.game.log)

    def undo(self) -> int:
        """Take back the human's last move and every bot move after it; how many moves."""
        moves = takeback_count(self.game.log, self.seat)
        if not moves:
            raise SaladError(_("undo: you have not made a move yet"))
        for _move in range(moves):
            self.game.undo()
        self.keep()
        return moves

    # -- records -------------------------------------------------------------------------------
    def player_entries(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for s in range(self.players):
            entry: dict[str, Any] = {"name": self.names[s]}
            if s in self.bots:
                entry["bot"] = self.bot_names[s]
            else:
                entry["human"] = True
            out.append(entry)
        return out

    def record(self) -> Record:
        return record_from_game(self.game, self.player_entries())

    def save(self, path: Path | None = None) -> Path:
        target = path or self.save_path
        if target is None:
            raise SaladError(_("save: no file given (e.g. save game.json)"))
        write_records(target, [self.record()])
        self.forget_kept()  # in the user's file now
        self.save_path = target
        return target


def seat_bots(spec: str, players: int, seat: int) -> list[str]:
    """``--bots`` for the other seats (in seat order), or one name for all of them; a list
    with one name per seat ('' at the human's seat)."""
    names = [n.strip().lower() for n in spec.split(",") if n.strip()] or ["expert"]
    others = players - 1
    if len(names) == 1:
        names *= others
    if len(names) != others:
        raise SaladError(
            _(
                "bots: {count} bots named for the {others} other seats "
                "(give one name for all, or one per seat)"
            ).format(count=len(names), others=others)
        )
    for name in dict.fromkeys(names):
        bot_factory(name)
        if reference_only(name):
            raise SaladError(
                _("bots: {name} sees every hand; it plays only in the lab").format(name=name)
            )
    out = list(names)
    out.insert(seat, "")
    return out


def default_names(bot_names: Sequence[str], seat: int) -> list[str]:
    return [
        _(HUMAN_NAME) if s == seat else f"{bot_word(name)[:1].upper()}{bot_word(name)[1:]} {s}"
        for s, name in enumerate(bot_names)
    ]


def seat_error(seat: int, players: int) -> str:
    """``seat`` is not a seat of a game of ``players``."""
    return _("seat: {seat} is not a seat of a {players}-player game (0 to {last})").format(
        seat=seat, players=players, last=players - 1
    )
