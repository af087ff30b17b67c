"""A ruleset in words, for `salad rules` and the help screens of every front end."""

from __future__ import annotations

from salad.ruleset import Moon, Ruleset


def describe(rs: Ruleset, players: int) -> str:
    compiled = rs.compiled(players)
    deck = compiled.deck
    spec = rs.deck
    lines = [f"{rs.title} (preset {rs.preset})"]
    if rs.settings:
        lines.append(f"House rules: {_settings_text(rs)}")
    lines.append("")
    suits = ", ".join(f"{s.name} {s.symbol} ({s.letter})" for s in spec.suits)
    lines.append(f"Deck: {suits}")
    for s in spec.suits:
        if s.min_players:
            lines.append(f"  {s.name} only with {s.min_players} or more players")
    ranks = " ".join(r.listed for r in spec.ranks)
    lines.append(f"Ranks, low to high: {ranks}")
    for w in spec.wilds:
        lines.append(f"Wild: {w.count} x {w.name} ({w.code}, {w.symbol})")
    copies = spec.copies_for(players)
    if copies > 1:
        lines.append(f"{copies} decks shuffled together for {players} players")
    lines.append(f"Players: {rs.min_players} to {rs.max_players}")
    lines.append("")
    lines.append("Cards removed so that the deal comes out even:")
    for n in range(rs.min_players, rs.max_players + 1):
        d = rs.deck_for(n)
        removed = " ".join(d.format(c) for c in d.removed) or "none"
        lines.append(f"  {n} players: {removed:<24} {d.cards_each} cards each")
    lines.append("")
    objective = "Highest" if rs.highest_wins else "Lowest"
    lines.append(
        f"Hands for {players} players ({deck.cards_each} tricks a hand); "
        f"{objective.lower()} total wins:"
    )
    for hand in compiled.hands:
        lines.append(f"  {hand.index + 1}. {hand.round.name}  (total {hand.fixed_total})")
        for p in hand.penalties:
            lines.append(f"       {p.penalty.name}: {p.penalty.describe(spec)}")
    lines.append("")
    lines.append(
        f"Game checksum: every game hands out {compiled.checksum} points in all"
        + (" (unless a moon is shot)" if rs.moon != Moon.NONE else "")
    )
    if rs.moon == Moon.OLD:
        lines.append(
            f"Moon: taking every counting card of a hand scores 0 and every other "
            f"player {rs.moon_points} (never in single-event hands)"
        )
    elif rs.moon == Moon.NEGATIVE:
        lines.append(
            "Moon: collecting every penalty of a hand scores it negative "
            "(never in single-event hands)"
        )
    if rs.passing:
        lines.append(f"Passing: {rs.passing} cards to the {rs.pass_direction} before each hand")
    if rs.trump_first:
        lines.append(f"Trump in the first hand: {rs.trump_first}")
    if rs.trump_chooser:
        lines.append("Before each later hand the player in last place picks the trump suit")
    return "\n".join(lines)


def _settings_text(rs: Ruleset) -> str:
    parts: list[str] = []
    for key, value in rs.settings.items():
        if isinstance(value, dict):
            parts.extend(f"{key}.{k}={v}" for k, v in value.items())
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            parts.append(f"{key}: {len(value)} added")
        else:
            parts.append(f"{key}={value}")
    return ", ".join(parts)
