"""The scorekeeper of `salad score`: prompts, /commands and the score sheet on the terminal.

One :class:`Scorekeeper` keeps one table's sheet (:mod:`salad.sheet` checks and scores
every hand); this module holds its questions, its commands and the tables it prints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import click
import typer
from platformdirs import user_data_path
from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from salad.formats.writing import write_whole
from salad.locale import N_, _, ngettext, pgettext
from salad.ruleset import Moon, Ruleset
from salad.sheet import (
    Field,
    ScoreSheet,
    SheetError,
    find_player,
    format_value,
    name_problem,
    parse_value,
)

DEFAULT_FILE = "salad-score.json"


def kept_file() -> Path:
    """Where a sheet not yet saved to a file of the user's is kept after every change, for
    ``salad score --resume``: in the user's data directory (``$XDG_DATA_HOME/salad`` on Linux)."""
    return user_data_path("salad", appauthor=False) / "sheet-in-progress.json"


HELP = N_(
    """\
Answer each question and press Enter. Per-player counts: one number per player in seat order
  (3 4 3 3), or names with counts, everyone left out taking none (ann 2 bob 1; a name alone
  counts 1: ann ann bob). Who-questions: a name, its first letters, or the player's number.
Commands, at any prompt:
  /fix N         correct hand N (Enter keeps an answer)
  /back          go back to the previous question of this hand
  /undo          take back the last hand entered, to enter it again
  /show          the sheet so far        /chart   running totals after every hand
  /save [FILE]   save the sheet (JSON)   /csv [FILE]   export the sheet as CSV
  /quit          leave                   /help    this text"""
)
"""The text of /help, in English (shown translated)."""


class _Quit(Exception):
    pass


class _Back(Exception):
    pass


class _Undo(Exception):
    pass


class _Fix(Exception):
    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.index = index


class Scorekeeper:
    """One scorekeeper at one table: prompts, commands and the sheet."""

    def __init__(
        self,
        console: Console,
        ruleset: Ruleset,
        players: int,
        sheet: ScoreSheet | None,
        path: Path | None,
    ) -> None:
        """``path``: the user's file of the sheet (``--load``, then ``/save``), written after
        every change once there is one; until then the sheet is kept in :func:`kept_file`, so
        that no way of leaving loses a hand entered."""
        self.out = console
        self.ruleset = ruleset
        self.n = players
        self._sheet = sheet
        self.path = path
        self.kept = kept_file()
        self.keeping = False
        """Whether this sheet is in ``kept`` (removed once it is in the user's file)."""
        self.dirty = False
        self.warned = False
        self.in_hand = False
        self.prefill: dict[int, Mapping[str, Any]] = {}
        """Answers of a hand taken back with /undo: the defaults when it is entered again."""

    @property
    def sheet(self) -> ScoreSheet:
        assert self._sheet is not None
        return self._sheet

    # -- the main loop ----------------------------------------------------------------------
    def run(self) -> None:
        rs = self.ruleset
        try:
            if self._sheet is None:
                self.say(
                    _("{title}, {n} players. {objective}").format(
                        title=_(rs.title), n=self.n, objective=self._objective()
                    ),
                    bold=True,
                )
                self.say(_("Type /help at any prompt for the commands."))
                self._sheet = self.ask_names()
            else:
                self.say(
                    _("{title}, loaded from {file}.").format(
                        title=_(rs.title), file=self.path or self.kept
                    ),
                    bold=True,
                )
                self.show()
            seats = ", ".join(f"{s + 1} {x}" for s, x in self._seats())
            self.say(_("Players: {seats}").format(seats=seats))
            while True:
                try:
                    if not self.sheet.is_over():
                        self.enter_hand(self.sheet.next_hand)
                        if self.sheet.is_over():
                            self.final()
                    else:
                        self.after_game()
                except _Fix as fix:
                    self._fix(fix.index)
                except _Undo:
                    pass  # the hand taken back is the next one to enter
        except _Quit:
            return

    def _fix(self, index: int) -> None:
        while True:
            try:
                self.enter_hand(index, correcting=True)
                if self.sheet.is_over():
                    self.final()
                return
            except _Fix as fix:
                index = fix.index
            except _Undo:
                return

    def _objective(self) -> str:
        rules = self.ruleset.compiled(self.n)
        hands = ngettext(
            "{n} hand of {tricks} tricks", "{n} hands of {tricks} tricks", len(rules.hands)
        ).format(n=len(rules.hands), tricks=rules.tricks)
        wins = _("highest total wins") if self.ruleset.highest_wins else _("lowest total wins")
        if self.ruleset.moon != Moon.NONE:
            points = _("the game hands out {points} points in all unless a moon is shot.")
        else:
            points = _("the game hands out {points} points in all.")
        return f"{hands}; {wins}; {points.format(points=rules.checksum)}"

    def _seats(self) -> list[tuple[int, str]]:
        return list(enumerate(self.sheet.names))

    # -- prompts --------------------------------------------------------------------------------
    def say(self, text: str = "", bold: bool = False) -> None:
        """A line of text, never read as markup (names and translations may hold brackets)."""
        text = escape(text)
        self.out.print(f"[bold]{text}[/]" if bold and text else text)

    def ask(self, prompt: str, default: str | None = None) -> str:
        """One line of input; EOF (Ctrl-D) leaves."""
        try:
            # TRANSLATORS: what ends a question asked at the prompt ("Player 1's name: ")
            suffix = " " if prompt.endswith("?") else pgettext("prompt", ": ")
            if default is None:
                answer: str = typer.prompt(
                    prompt, default="", show_default=False, prompt_suffix=suffix
                )
            else:
                answer = typer.prompt(prompt, default=default, prompt_suffix=suffix)
        except (typer.Abort, click.exceptions.Abort):  # Ctrl-D or Ctrl-C
            self.say("")
            if self.dirty:
                self.say(
                    _(
                        "Left without saving to a file: the sheet is kept in {file}; "
                        "salad score --resume carries on with it."
                    ).format(file=self.kept)
                )
            raise _Quit from None
        return answer.strip()

    def ask_answer(self, prompt: str, default: str | None = None) -> str:
        """A line that is not a command; commands are carried out on the way."""
        while True:
            text = self.ask(prompt, default)
            if not text.startswith(("/", "?")):
                return text
            self.command(text)

    def bad(self, message: str) -> None:
        self.out.print(f"[red]{escape(message)}[/]")

    # -- commands -------------------------------------------------------------------------------
    def command(self, text: str) -> None:
        words = text.lstrip("/").split(maxsplit=1)
        name = words[0].lower() if words else "help"
        arg = words[1].strip() if len(words) > 1 else ""
        if text.startswith("?") or name in ("help", "h", "?"):
            self.say(_(HELP))
        elif name in ("quit", "q", "exit"):
            self._quit()
        elif name in ("back", "b"):
            if not self.in_hand:
                self.bad(_("/back works while entering a hand"))
                return
            raise _Back
        elif name in ("fix", "f", "correct"):
            self._fix_command(arg)
        elif name in ("undo", "u"):
            self._undo()
        elif self._sheet is None:
            self.bad(_("enter the players' names first (/quit to leave)"))
        elif name in ("show", "s", "sheet"):
            self.show()
        elif name in ("chart", "c", "running"):
            self.chart()
        elif name == "save":
            self.save(arg)
        elif name in ("csv", "export"):
            self.export(arg)
        else:
            self.bad(_("unknown command /{name}: try /help").format(name=name))

    def _quit(self) -> None:
        if self.dirty and not self.warned:
            self.warned = True
            self.bad(_("The sheet is not saved: /save [FILE] first, or /quit again to leave."))
            return
        raise _Quit

    def _fix_command(self, arg: str) -> None:
        if self._sheet is None or not self.sheet.entries:
            self.bad(_("/fix: no hand is entered yet"))
            return
        done = len(self.sheet.entries)
        if not arg.isdigit() or not 1 <= int(arg) <= done:
            if done == 1:
                self.bad(_("/fix N: N is the number of a hand entered (1)"))
            else:
                self.bad(
                    _("/fix N: N is the number of a hand entered (1 to {last})").format(last=done)
                )
            return
        raise _Fix(int(arg) - 1)

    def _undo(self) -> None:
        """Take back the last hand entered (as the web sheet's Undo does); its answers become
        the defaults when it is entered again. A hand being entered is left."""
        if self._sheet is None or not self.sheet.entries:
            self.bad(_("/undo: no hand is entered yet"))
            return
        index = len(self.sheet.entries) - 1
        self.prefill[index] = self.sheet.entries[index]
        self.sheet.undo()
        self.changed()
        self.say(
            _("Took back hand {n} ({round}): enter it again (Enter keeps an answer).").format(
                n=index + 1, round=self.sheet.round_name(index)
            )
        )
        raise _Undo

    def changed(self) -> None:
        """The sheet changed: written to the user's file if it has one, else kept."""
        self.warned = False
        if self.path is not None and self.write(self.path, "/save"):
            self.dirty = False
            return
        self.dirty = True
        self.keeping = self.write(self.kept, _("keeping the sheet")) or self.keeping

    def write(self, path: Path, what: str) -> bool:
        """The sheet written whole to ``path`` (a write cut short leaves the last one);
        whether it was."""
        try:
            if path == self.kept:  # the user's data directory, made on first use
                path.parent.mkdir(parents=True, exist_ok=True)
            write_whole(path, self.sheet.to_json())
        except OSError as exc:
            self.bad(f"{what}: {path}: {exc.strerror or exc}")  # the system's words
            return False
        return True

    def save(self, arg: str) -> None:
        path = Path(arg) if arg else (self.path or Path(DEFAULT_FILE))
        if not self.write(path, "/save"):
            return
        if self.keeping:  # in the user's file now
            self.kept.unlink(missing_ok=True)
            self.keeping = False
        self.path = path
        self.dirty = False
        self.warned = False
        self.say(_("Saved to {file}.").format(file=path))

    def export(self, arg: str) -> None:
        if arg:
            path = Path(arg)
        elif self.path is not None:
            path = self.path.with_suffix(".csv")
        else:
            path = Path(DEFAULT_FILE).with_suffix(".csv")
        try:
            path.write_text(self.sheet.to_csv(), encoding="utf-8")
        except OSError as exc:
            self.bad(f"/csv: {path}: {exc.strerror or exc}")
            return
        self.say(_("Exported to {file}.").format(file=path))

    # -- names ----------------------------------------------------------------------------------
    def ask_names(self) -> ScoreSheet:
        names: list[str] = []
        while len(names) < self.n:
            if names:
                prompt = _("Player {n}'s name")
            else:
                prompt = _("Player {n}'s name (or every name, separated by commas)")
            text = self.ask_answer(prompt.format(n=len(names) + 1))
            if not names and "," in text:
                many = [x.strip() for x in text.split(",")]
                if len(many) == self.n:
                    problems = [
                        p for p in (name_problem(x, many[:i]) for i, x in enumerate(many)) if p
                    ]
                    if not problems:
                        names = many
                        break
                    self.bad(problems[0])
                    continue
                self.bad(
                    _("{given} names given, {n} needed (or give one at a time)").format(
                        given=len(many), n=self.n
                    )
                )
                continue
            if not text:
                text = _("Player {n}").format(n=len(names) + 1)
            problem = name_problem(text, names)
            if problem:
                self.bad(problem)
                continue
            names.append(text)
        dealer = None
        while True:
            text = self.ask_answer(_("Who deals first? (name or number; Enter to skip)"))
            if not text:
                break
            try:
                dealer = find_player(text, names)
                break
            except SheetError as exc:
                self.bad(str(exc))
        return ScoreSheet(self.ruleset, names, dealer)

    # -- hands ----------------------------------------------------------------------------------
    def enter_hand(self, index: int, correcting: bool = False) -> None:
        sheet = self.sheet
        fields = sheet.fields(index)
        old = sheet.entries[index] if correcting else self.prefill.pop(index, None)
        self.say("")
        self.hand_header(index, fields, correcting)
        answers: dict[str, Any] = {}
        self.in_hand = True
        try:
            self._answer_all(index, fields, answers, old)
        finally:
            self.in_hand = False
        if correcting:
            sheet.correct(index, answers)
        else:
            sheet.enter(answers)
        self.changed()
        self.hand_result(index)

    def _answer_all(
        self,
        index: int,
        fields: Sequence[Field],
        answers: dict[str, Any],
        old: Mapping[str, Any] | None,
    ) -> None:
        names = self.sheet.names
        i = 0
        while i < len(fields):
            field = fields[i]
            default = format_value(field, old[field.id], names) if old else None
            try:
                answers[field.id] = self.ask_field(index, field, answers, default)
                i += 1
            except _Back:
                if i == 0:
                    self.bad(_("/back: this is the first question of the hand"))
                    continue
                i -= 1
                answers.pop(fields[i].id, None)

    def hand_header(self, index: int, fields: Sequence[Field], correcting: bool) -> None:
        sheet = self.sheet
        if correcting:
            head = _("Correcting hand {n} of {count}: {round}")
        else:
            head = _("Hand {n} of {count}: {round}")
        line = head.format(n=index + 1, count=sheet.hand_count, round=sheet.round_name(index))
        dealer = sheet.dealer(index)
        if dealer is not None:
            line += "  " + _("({name} deals)").format(name=sheet.names[dealer])
        self.say(line, bold=True)
        picker = sheet.trump_picker(index)
        if picker is not None and not correcting:
            self.say(
                "  " + _("{name} picks the trump (last place).").format(name=sheet.names[picker])
            )
        for f in fields:
            text = _("{field}: {cost} ({total} in all)") if f.per_player else _("{field}: {cost}")
            self.say("  " + text.format(field=f.title, cost=f.cost, total=f.total))
        if not fields:
            self.say("  " + _("Nothing to enter: no penalty of this hand is in play."))
        rules = sheet.rules
        if rules.hands[index].moon:
            if self.ruleset.moon == Moon.OLD:
                self.say(
                    "  "
                    + _("Moon: taking every penalty scores 0 and everyone else {points}.").format(
                        points=self.ruleset.moon_points
                    )
                )
            else:
                self.say("  " + _("Moon: taking every penalty scores the hand negative."))

    def ask_field(
        self, index: int, field: Field, answers: dict[str, Any], default: str | None
    ) -> Any:
        names = self.sheet.names
        prompt = f"{field.name} ({' '.join(names)})" if field.per_player else field.question
        while True:
            text = self.ask_answer(prompt, default)
            try:
                value = parse_value(field, text, names)
            except SheetError as exc:
                self.bad(str(exc))
                continue
            problems = self.sheet.check_field(field.id, value, answers, index)
            if problems:
                self.bad(problems[0] + self._back_hint(index, field, value, answers))
                if len(problems) > 1:
                    more = len(problems) - 1
                    self.bad(
                        "  "
                        + ngettext(
                            "{n} more problem: fix this one first",
                            "{n} more problems: fix this one first",
                            more,
                        ).format(n=more)
                    )
                continue
            return value

    def _back_hint(self, index: int, field: Field, value: Any, answers: dict[str, Any]) -> str:
        """``; type /back to change the tricks`` when the answer is fine on its own but
        contradicts an earlier answer of the hand (then it is that one which may be wrong)."""
        sheet = self.sheet
        if sheet.check_field(field.id, value, None, index):
            return ""  # wrong on its own: nothing earlier to change
        fields = [f.id for f in sheet.fields(index)]
        here = fields.index(field.id)
        for f in sheet.fields(index):
            if f.id in answers and sheet.check_field(field.id, value, {f.id: answers[f.id]}, index):
                steps = here - fields.index(f.id)
                if steps == 1:
                    return _("; type /back to change the {answer}").format(answer=f.noun)
                return _("; type /back ({n} times) to change the {answer}").format(
                    n=steps, answer=f.noun
                )
        return ""

    def hand_result(self, index: int) -> None:
        sheet = self.sheet
        score = sheet.score(index)
        total, expected = sheet.hand_check(index)
        parts = "  ".join(f"{name} {p}" for name, p in zip(sheet.names, score.points, strict=True))
        check = (_("sum {sum} ok") if expected == total else _("sum {sum}")).format(sum=total)
        self.say(_("Hand {n}: {points}   ({check})").format(n=index + 1, points=parts, check=check))
        if score.moon >= 0:
            self.say(_("{name} shot the moon!").format(name=sheet.names[score.moon]), bold=True)
        last = len(sheet.entries) - 1
        totals = "  ".join(f"{name} {t}" for name, t in zip(sheet.names, sheet.totals, strict=True))
        leaders = ", ".join(sheet.names[s] for s in sheet.leaders(last))
        self.say(
            _("Totals after hand {n}: {totals}   Leading: {leaders}").format(
                n=last + 1, totals=totals, leaders=leaders
            )
        )

    # -- showing --------------------------------------------------------------------------------
    def show(self) -> None:
        sheet = self.sheet
        table = Table(
            title=escape(_("{title}: the sheet").format(title=_(sheet.ruleset.title))),
            title_justify="left",
        )
        table.add_column("#", justify="right")
        table.add_column(escape(pgettext("column", "Round")))
        for name in sheet.names:
            table.add_column(escape(name), justify="right")
        table.add_column(escape(pgettext("column", "Sum")), justify="right")
        for i, score in enumerate(sheet.scores()):
            total, expected = sheet.hand_check(i)
            mark = " ok" if expected == total else " " + _("moon") if score.moon >= 0 else ""
            table.add_row(
                str(i + 1),
                escape(sheet.round_name(i)),
                *(f"{p}{'*' if s == score.moon else ''}" for s, p in enumerate(score.points)),
                escape(f"{total}{mark}"),
            )
        total, checksum = sheet.game_check()
        table.add_section()
        mark = " ok" if checksum == total else ""
        table.add_row("", escape(_("Total")), *(str(t) for t in sheet.totals), f"{total}{mark}")
        places = sheet.standings()
        table.add_row("", escape(_("Place")), *(escape(_place(p, places)) for p in places), "")
        self.out.print(table)
        if not sheet.entries:
            self.say(_("No hand entered yet."))
        elif not sheet.is_over():
            self.say(
                _("Next: hand {n}, {round}.").format(
                    n=sheet.next_hand + 1, round=sheet.round_name(sheet.next_hand)
                )
            )

    def chart(self) -> None:
        sheet = self.sheet
        table = Table(title=escape(_("Running totals")), title_justify="left")
        table.add_column(escape(_("After")))
        for name in sheet.names:
            table.add_column(escape(name), justify="right")
        table.add_column(escape(_("Leading")))
        for i, row in enumerate(sheet.running()):
            leaders = ", ".join(sheet.names[s] for s in sheet.leaders(i))
            table.add_row(
                escape(f"{i + 1}. {sheet.round_name(i)}"), *(str(t) for t in row), escape(leaders)
            )
        self.out.print(table)
        totals = sheet.totals
        width = max((abs(t) for t in totals), default=0) or 1
        column = max(cell_len(x) for x in sheet.names)  # as wide as shown: 王 takes two
        for name, t in zip(sheet.names, totals, strict=True):
            bar = ("-" if t < 0 else "#") * round(30 * abs(t) / width)
            self.say(f"  {' ' * (column - cell_len(name))}{name} {bar} {t}")

    def final(self) -> None:
        sheet = self.sheet
        self.say("")
        self.show()
        total, checksum = sheet.game_check()
        if checksum is None:
            self.say(
                _("Game total {total} (a moon was shot, so there is no checksum).").format(
                    total=total
                )
            )
        else:
            self.say(
                _("Game total {total}, the checksum for {n} players: ok.").format(
                    total=total, n=sheet.players
                )
            )
        winners = sheet.winners()
        names = ", ".join(sheet.names[s] for s in winners)
        highest = sheet.ruleset.highest_wins
        if len(winners) == 1:
            if highest:
                line = _("Winner: {name} (highest total, {total}).")
            else:
                line = _("Winner: {name} (lowest total, {total}).")
            self.say(line.format(name=names, total=sheet.totals[winners[0]]), bold=True)
        else:
            if highest:
                line = _("Winners, sharing first place: {names} (highest total).")
            else:
                line = _("Winners, sharing first place: {names} (lowest total).")
            self.say(line.format(names=names), bold=True)
        places = sheet.standings()
        width = max(cell_len(x) for x in sheet.names)
        for s in sorted(range(sheet.players), key=lambda s: places[s]):
            place = _place(places[s], places)
            name = sheet.names[s] + " " * (width - cell_len(sheet.names[s]))
            self.say(f"  {place:>4}  {name}  {sheet.totals[s]:>6}")
        self.say(_("Commands: /fix N, /undo, /show, /chart, /save [FILE], /csv [FILE], /quit."))

    def after_game(self) -> None:
        text = self.ask_answer(_("Command"))
        if text:
            self.bad(_("the game is over: /fix N, /undo, /show, /chart, /save, /csv or /quit"))


def _place(place: int, places: Sequence[int]) -> str:
    """``2.``, or ``2=`` when the place is shared (French: ``2e``, ``2e=``, ``1er``)."""
    shared = list(places).count(place) > 1
    # TRANSLATORS: a place in the standings as a short ordinal, "=" when shared (French: 1er, 2e)
    if place == 1:
        return pgettext("place", "1=") if shared else pgettext("place", "1.")
    return (pgettext("place", "{n}=") if shared else pgettext("place", "{n}.")).format(n=place)
