"""Every error the package raises on bad input is a ``ValueError`` with a one-line message."""


class SaladError(ValueError):
    """Base class: bad input of any kind, described in one line."""


class CardParseError(SaladError):
    """Text that is not a card of the deck."""


class RulesError(SaladError):
    """An invalid ruleset, rules file or setting; the message names the key."""


class IllegalMoveError(SaladError):
    """A move that the rules do not allow now; the message names seat, move and reason."""


class RecordError(SaladError):
    """A game record that cannot be read or does not replay."""
