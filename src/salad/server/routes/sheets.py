"""The score sheet's REST endpoints (``/api/sheets/...``), stateless: the browser keeps the
sheet (``salad-score/1``, docs/score-sheet.md) and sends it with every call, which checks every
hand again (:meth:`ScoreSheet.from_dict`), does what is asked with the model (:mod:`salad.sheet`)
and answers with the new sheet and everything the page shows.

Errors are ``{"error": "one line"}`` with status 400; names or an entry that do not add up also
list every problem: ``{"error": "a; b", "problems": ["a", "b"]}``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from salad.errors import SaladError
from salad.locale import _
from salad.server.errors import ActionError
from salad.server.incoming import StrictIn
from salad.server.info import deck_info, round_marks
from salad.server.rules import build_ruleset
from salad.server.schemas import ErrorOut, RulesFileIn
from salad.sheet import ScoreSheet, SheetError, check_names

MAX_TEXT = 100_000


class NewSheetIn(RulesFileIn):
    names: list[str] = Field(description="The players' names in seat order (3 to 8 for presets)")
    players: int | None = Field(None, description="When given, must be the number of names")
    first_dealer: int | None = Field(None, description="The seat that deals the first hand")


class SheetIn(StrictIn):
    sheet: Any = Field(description="The sheet as saved (salad-score/1 JSON)")


class LoadIn(StrictIn):
    sheet: Any = Field(None, description="The sheet as saved (salad-score/1 JSON)")
    text: str | None = Field(
        None, max_length=MAX_TEXT, description="Or the text of a saved sheet file"
    )


class EntryIn(SheetIn):
    entry: Any = Field(description="What each player took: {field id: answer}")
    index: int | None = Field(
        None, description="The hand (0-based); default: the next hand to enter"
    )


class CorrectIn(SheetIn):
    index: int = Field(description="The hand to correct (0-based)")
    entry: Any = Field(description="What each player took: {field id: answer}")


class SheetOut(BaseModel):
    sheet: dict[str, Any] = Field(description="The sheet to keep and send back (salad-score/1)")
    summary: dict[str, Any] = Field(
        description="ScoreSheet.summary(): hands, running totals, leaders, standings, checks, "
        "the next hand's questions and the chart"
    )
    rounds: list[str] = Field(description="The round of every hand of the game, in order")
    fields: list[list[dict[str, Any]]] = Field(
        description="The questions of every hand of the game, by hand index (Field.to_dict())"
    )
    problems: list[str] = Field(description="What does not add up (check only; else empty)")
    deck: dict[str, Any] = Field(
        description="The deck for this player count, as a table's lobby gives it (its suits' "
        "drawings: art)"
    )
    marks: list[list[dict[str, Any]]] = Field(
        description="By hand index: the suit or card each round names ({suit} or {card, "
        "suit}), for the page to draw beside its name"
    )


class ProblemsOut(BaseModel):
    error: str = Field(description="One line saying what went wrong; every problem, '; '")
    problems: list[str] | None = Field(
        None,
        description="Every problem the model found, one per item: only when the names or an "
        "entry do not add up (other bad input has error alone)",
    )


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ProblemsOut, "description": "Bad input (with problems: names or an entry)"},
    # Every other refusal (a body too large, ...) is {"error": "one line"}; bad input is 400,
    # never 422, which this range keeps FastAPI from describing.
    "4XX": {"model": ErrorOut, "description": "Another refusal, e.g. a body too large"},
}
router = APIRouter(prefix="/api/sheets", tags=["score sheet"], responses=ERRORS)


def read_sheet(data: Any, text: str | None = None) -> ScoreSheet:
    """The sent sheet (data, or a file's ``text``), every hand checked again; a one-line 400
    when it does not load."""
    try:
        sheet = ScoreSheet.from_json(text) if text is not None else ScoreSheet.from_dict(data)
    except SaladError as exc:
        raise ActionError(_("sheet: {why}").format(why=exc)) from None
    problems = printable(sheet.names)
    if problems:
        raise ActionError(_("sheet: players: {why}").format(why=problems[0]))
    return sheet


def printable(names: list[str]) -> list[str]:
    """The names holding control characters, refused here (the model refuses the rest)."""
    return [
        f"player {i + 1}: a name must not hold control characters"
        for i, name in enumerate(names)
        if isinstance(name, str) and not name.isprintable()
    ]


async def refused(_request: Request, exc: SheetError) -> JSONResponse:
    """The app's answer to names or an entry that do not add up: 400 with every problem
    (:class:`ProblemsOut`)."""
    return JSONResponse({"error": str(exc), "problems": exc.problems}, status_code=400)


def sheet_answer(sheet: ScoreSheet, problems: list[str] | None = None) -> dict[str, Any]:
    """What every call answers (:class:`SheetOut`)."""
    deck = sheet.rules.deck
    hands = range(sheet.hand_count)
    return {
        "sheet": sheet.to_dict(),
        "summary": sheet.summary(),
        "rounds": [sheet.round_name(i) for i in hands],
        "fields": [[f.to_dict() for f in sheet.fields(i)] for i in hands],
        "problems": problems or [],
        "deck": deck_info(sheet.ruleset, len(sheet.names)),
        "marks": [round_marks(deck, sheet.rules.hands[i]) for i in hands],
    }


@router.post("/new", response_model=SheetOut)
async def new_sheet(body: NewSheetIn) -> Any:
    """A new sheet: the rules (a preset or a rules file, toppings, swaps) and the names."""
    rs = build_ruleset(body.rules, body.rules_toml, body.toppings, body.swap)
    problems = check_names(body.names, body.players) + printable(body.names)
    if problems:
        raise SheetError(problems)
    return sheet_answer(ScoreSheet(rs, body.names, body.first_dealer))


@router.post("/load", response_model=SheetOut)
async def load_sheet(body: LoadIn) -> Any:
    """A saved sheet (as JSON data in ``sheet`` or a file's text in ``text``), checked again."""
    if body.text is not None:
        return sheet_answer(read_sheet(None, body.text))
    if body.sheet is None:
        raise ActionError(_("sheet: give the sheet (sheet) or the text of its file (text)"))
    return sheet_answer(read_sheet(body.sheet))


@router.post("/check", response_model=SheetOut)
async def check_hand(body: EntryIn) -> Any:
    """Every problem with an entry for the next hand (or for entered hand ``index``); the sheet
    is not changed. ``problems`` is empty when the entry adds up."""
    sheet = read_sheet(body.sheet)
    index = sheet.next_hand if body.index is None else body.index
    if sheet.is_over() and not 0 <= index < sheet.hand_count:
        raise ActionError(
            _("index: {index} is not a hand of this game (0 to {last})").format(
                index=index, last=sheet.hand_count - 1
            )
        )
    if not 0 <= index <= sheet.next_hand:
        raise ActionError(
            _(
                "index: {index} is neither an entered hand nor the next one "
                "(0 to {last}: hand 1 to hand {hand})"
            ).format(index=index, last=sheet.next_hand, hand=sheet.next_hand + 1)
        )
    return sheet_answer(sheet, sheet.check(body.entry, index))


@router.post("/enter", response_model=SheetOut)
async def enter_hand(body: EntryIn) -> Any:
    """Add the next hand; refused (400, with every problem) when the entry does not add up."""
    sheet = read_sheet(body.sheet)
    if body.index is not None and body.index != sheet.next_hand:
        raise ActionError(
            _(
                "index: the next hand is hand {hand} (index {index}); "
                "correct an earlier hand with /api/sheets/correct"
            ).format(hand=sheet.next_hand + 1, index=sheet.next_hand)
        )
    sheet.enter(body.entry)
    return sheet_answer(sheet)


@router.post("/correct", response_model=SheetOut)
async def correct_hand(body: CorrectIn) -> Any:
    """Replace the entry of an earlier hand; every total after it follows."""
    sheet = read_sheet(body.sheet)
    sheet.correct(body.index, body.entry)
    return sheet_answer(sheet)


@router.post("/undo", response_model=SheetOut)
async def undo_hand(body: SheetIn) -> Any:
    """Take back the last hand entered."""
    sheet = read_sheet(body.sheet)
    try:
        sheet.undo()
    except SheetError as exc:
        raise ActionError(str(exc)) from None
    return sheet_answer(sheet)


@router.post(
    "/csv",
    # Response (no media type of its own): the errors stay application/json in the description.
    response_class=Response,
    responses={
        200: {"content": {"text/csv": {"schema": {"type": "string"}}}, "description": "The CSV"}
    },
)
async def sheet_csv(body: SheetIn) -> Response:
    """The sheet as CSV: one row per hand, then the totals and the places."""
    sheet = read_sheet(body.sheet)
    return Response(
        sheet.to_csv(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="salad-score.csv"'},
    )
