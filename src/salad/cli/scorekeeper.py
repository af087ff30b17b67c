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
from rich.console import Console
from rich.markup import escape
from rich.table import Table

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

HELP = """\
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
        self.out = console
        self.ruleset = ruleset
        self.n = players
        self._sheet = sheet
        self.path = path
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
                self.say(f"[bold]{escape(rs.title)}[/], {self.n} players. {self._objective()}")
                self.say("Type /help at any prompt for the commands.")
                self._sheet = self.ask_names()
            else:
                self.say(f"[bold]{escape(rs.title)}[/], loaded from {escape(str(self.path))}.")
                self.show()
            self.say("Players: " + ", ".join(f"{s + 1} {escape(x)}" for s, x in self._seats()))
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
        how = "Highest" if self.ruleset.highest_wins else "Lowest"
        moon = " unless a moon is shot" if self.ruleset.moon != Moon.NONE else ""
        return (
            f"{len(rules.hands)} hands of {rules.tricks} tricks; {how.lower()} total wins; "
            f"the game hands out {rules.checksum} points in all{moon}."
        )

    def _seats(self) -> list[tuple[int, str]]:
        return list(enumerate(self.sheet.names))

    # -- prompts --------------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self.out.print(text)

    def ask(self, prompt: str, default: str | None = None) -> str:
        """One line of input; EOF (Ctrl-D) leaves."""
        try:
            if default is None:
                answer: str = typer.prompt(prompt, default="", show_default=False)
            else:
                answer = typer.prompt(prompt, default=default)
        except (typer.Abort, click.exceptions.Abort):
            self.say("")
            if self.dirty:
                self.say("Left without saving.")
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
            self.say(escape(HELP))
        elif name in ("quit", "q", "exit"):
            self._quit()
        elif name in ("back", "b"):
            if not self.in_hand:
                self.bad("/back works while entering a hand")
                return
            raise _Back
        elif name in ("fix", "f", "correct"):
            self._fix_command(arg)
        elif name in ("undo", "u"):
            self._undo()
        elif self._sheet is None:
            self.bad("enter the players' names first (/quit to leave)")
        elif name in ("show", "s", "sheet"):
            self.show()
        elif name in ("chart", "c", "running"):
            self.chart()
        elif name == "save":
            self.save(arg)
        elif name in ("csv", "export"):
            self.export(arg)
        else:
            self.bad(f"unknown command /{name}: try /help")

    def _quit(self) -> None:
        if self.dirty and not self.warned:
            self.warned = True
            self.bad("The sheet is not saved: /save [FILE] first, or /quit again to leave.")
            return
        raise _Quit

    def _fix_command(self, arg: str) -> None:
        if self._sheet is None or not self.sheet.entries:
            self.bad("/fix: no hand is entered yet")
            return
        done = len(self.sheet.entries)
        if not arg.isdigit() or not 1 <= int(arg) <= done:
            which = "1" if done == 1 else f"1 to {done}"
            self.bad(f"/fix N: N is the number of a hand entered ({which})")
            return
        raise _Fix(int(arg) - 1)

    def _undo(self) -> None:
        """Take back the last hand entered (as the web sheet's Undo does); its answers become
        the defaults when it is entered again. A hand being entered is left."""
        if self._sheet is None or not self.sheet.entries:
            self.bad("/undo: no hand is entered yet")
            return
        index = len(self.sheet.entries) - 1
        self.prefill[index] = self.sheet.entries[index]
        self.sheet.undo()
        self.dirty = True
        self.warned = False
        self.say(
            f"Took back hand {index + 1} ({escape(self.sheet.round_name(index))}): "
            "enter it again (Enter keeps an answer)."
        )
        raise _Undo

    def save(self, arg: str) -> None:
        path = Path(arg) if arg else (self.path or Path(DEFAULT_FILE))
        try:
            path.write_text(self.sheet.to_json(), encoding="utf-8")
        except OSError as exc:
            self.bad(f"/save: {path}: {exc.strerror or exc}")
            return
        self.path = path
        self.dirty = False
        self.warned = False
        self.say(f"Saved to {escape(str(path))}.")

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
        self.say(f"Exported to {escape(str(path))}.")

    # -- names ----------------------------------------------------------------------------------
    def ask_names(self) -> ScoreSheet:
        names: list[str] = []
        while len(names) < self.n:
            hint = " (or every name, separated by commas)" if not names else ""
            text = self.ask_answer(f"Player {len(names) + 1}'s name{hint}")
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
                self.bad(f"{len(many)} names given, {self.n} needed (or give one at a time)")
                continue
            if not text:
                text = f"Player {len(names) + 1}"
            problem = name_problem(text, names)
            if problem:
                self.bad(problem)
                continue
            names.append(text)
        dealer = None
        while True:
            text = self.ask_answer("Who deals first? (name or number; Enter to skip)")
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
        self.dirty = True
        self.warned = False
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
                    self.bad("/back: this is the first question of the hand")
                    continue
                i -= 1
                answers.pop(fields[i].id, None)

    def hand_header(self, index: int, fields: Sequence[Field], correcting: bool) -> None:
        sheet = self.sheet
        word = "Correcting hand" if correcting else "Hand"
        line = f"[bold]{word} {index + 1} of {sheet.hand_count}: {escape(sheet.round_name(index))}"
        line += "[/]"
        dealer = sheet.dealer(index)
        if dealer is not None:
            line += f"  ({escape(sheet.names[dealer])} deals)"
        self.say(line)
        picker = sheet.trump_picker(index)
        if picker is not None and not correcting:
            self.say(f"  {escape(sheet.names[picker])} picks the trump (last place).")
        for f in fields:
            extra = f" ({f.total} in all)" if f.per_player else ""
            self.say(f"  {escape(f.title)}: {f.cost}{extra}")
        if not fields:
            self.say("  Nothing to enter: no penalty of this hand is in play.")
        rules = sheet.rules
        if rules.hands[index].moon:
            if self.ruleset.moon == Moon.OLD:
                self.say(
                    f"  Moon: taking every penalty scores 0 and everyone else "
                    f"{self.ruleset.moon_points}."
                )
            else:
                self.say("  Moon: taking every penalty scores the hand negative.")

    def ask_field(
        self, index: int, field: Field, answers: dict[str, Any], default: str | None
    ) -> Any:
        names = self.sheet.names
        prompt = f"{field.label} ({' '.join(names)})" if field.per_player else field.question
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
                    self.bad(f"  {more} more problem{'s' if more > 1 else ''}: fix this one first")
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
                times = "" if steps == 1 else f" ({steps} times)"
                return f"; type /back{times} to change the {f.noun}"
        return ""

    def hand_result(self, index: int) -> None:
        sheet = self.sheet
        score = sheet.score(index)
        total, expected = sheet.hand_check(index)
        parts = "  ".join(
            f"{escape(name)} {p}" for name, p in zip(sheet.names, score.points, strict=True)
        )
        check = f"sum {total} ok" if expected == total else f"sum {total}"
        self.say(f"Hand {index + 1}: {parts}   ({check})")
        if score.moon >= 0:
            self.say(f"[bold]{escape(sheet.names[score.moon])} shot the moon![/]")
        last = len(sheet.entries) - 1
        totals = "  ".join(
            f"{escape(name)} {t}" for name, t in zip(sheet.names, sheet.totals, strict=True)
        )
        leaders = ", ".join(sheet.names[s] for s in sheet.leaders(last))
        self.say(f"Totals after hand {last + 1}: {totals}   Leading: {escape(leaders)}")

    # -- showing --------------------------------------------------------------------------------
    def show(self) -> None:
        sheet = self.sheet
        table = Table(title=f"{sheet.ruleset.title}: the sheet", title_justify="left")
        table.add_column("#", justify="right")
        table.add_column("Round")
        for name in sheet.names:
            table.add_column(escape(name), justify="right")
        table.add_column("Sum", justify="right")
        for i, score in enumerate(sheet.scores()):
            total, expected = sheet.hand_check(i)
            mark = " ok" if expected == total else " moon" if score.moon >= 0 else ""
            table.add_row(
                str(i + 1),
                escape(sheet.round_name(i)),
                *(f"{p}{'*' if s == score.moon else ''}" for s, p in enumerate(score.points)),
                f"{total}{mark}",
            )
        total, checksum = sheet.game_check()
        table.add_section()
        mark = " ok" if checksum == total else ""
        table.add_row("", "Total", *(str(t) for t in sheet.totals), f"{total}{mark}")
        places = sheet.standings()
        table.add_row("", "Place", *(_place(p, places) for p in places), "")
        self.out.print(table)
        if not sheet.entries:
            self.say("No hand entered yet.")
        elif not sheet.is_over():
            self.say(
                f"Next: hand {sheet.next_hand + 1}, {escape(sheet.round_name(sheet.next_hand))}."
            )

    def chart(self) -> None:
        sheet = self.sheet
        table = Table(title="Running totals", title_justify="left")
        table.add_column("After")
        for name in sheet.names:
            table.add_column(escape(name), justify="right")
        table.add_column("Leading")
        for i, row in enumerate(sheet.running()):
            leaders = ", ".join(sheet.names[s] for s in sheet.leaders(i))
            table.add_row(
                escape(f"{i + 1}. {sheet.round_name(i)}"), *(str(t) for t in row), escape(leaders)
            )
        self.out.print(table)
        totals = sheet.totals
        width = max((abs(t) for t in totals), default=0) or 1
        for name, t in zip(sheet.names, totals, strict=True):
            bar = ("-" if t < 0 else "#") * round(30 * abs(t) / width)
            self.say(f"  {escape(name):>{max(len(x) for x in sheet.names)}} {bar} {t}")

    def final(self) -> None:
        sheet = self.sheet
        self.say("")
        self.show()
        total, checksum = sheet.game_check()
        if checksum is None:
            self.say(f"Game total {total} (a moon was shot, so there is no checksum).")
        else:
            self.say(f"Game total {total}, the checksum for {sheet.players} players: ok.")
        winners = sheet.winners()
        how = "highest" if sheet.ruleset.highest_wins else "lowest"
        names = ", ".join(sheet.names[s] for s in winners)
        if len(winners) == 1:
            self.say(f"[bold]Winner: {escape(names)}[/] ({how} total, {sheet.totals[winners[0]]}).")
        else:
            self.say(f"[bold]Winners, sharing first place: {escape(names)}[/] ({how} total).")
        places = sheet.standings()
        width = max(len(x) for x in sheet.names)
        for s in sorted(range(sheet.players), key=lambda s: places[s]):
            place = _place(places[s], places)
            name = escape(f"{sheet.names[s]:<{width}}")
            self.say(f"  {place:>4}  {name}  {sheet.totals[s]:>6}")
        self.say("Commands: /fix N, /undo, /show, /chart, /save [FILE], /csv [FILE], /quit.")

    def after_game(self) -> None:
        text = self.ask_answer("Command")
        if text:
            self.bad("the game is over: /fix N, /undo, /show, /chart, /save, /csv or /quit")


def _place(place: int, places: Sequence[int]) -> str:
    """``2.``, or ``2=`` when the place is shared."""
    return f"{place}=" if list(places).count(place) > 1 else f"{place}."
