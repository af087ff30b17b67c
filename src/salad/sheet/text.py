"""Transitional: renamed :mod:`salad.sheet.printout`; this module goes once the CLI and TUI
import from there."""

from salad.sheet.printout import full_sheet, hand_rows, result_line, sheet_header, sheet_row

__all__ = ["full_sheet", "hand_rows", "result_line", "sheet_header", "sheet_row"]
