"""The lab: bots played against bots, many games at a time, measured and rated.

:mod:`salad.lab.match` plays duplicate matches (a fixed line-up, every deal in every seating)
and compares the bots with confidence intervals; :mod:`salad.lab.tournament` plays many
entrants on a balanced schedule and rates them with OpenSkill. Both play their games through
the same pieces: :mod:`~salad.lab.games` (one game in a worker), :mod:`~salad.lab.pool` (the
local process pool), :mod:`~salad.lab.progress` (the progress bar) and
:mod:`~salad.lab.record_writer` (records written in order).
"""
