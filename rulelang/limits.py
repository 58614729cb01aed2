"""The limits that keep a mistaken or hostile ruleset from hanging the
computer or exhausting its memory.

One ``Limits`` value holds them all.  Every stage reads the ones it needs:

==================  =========  ==============================================
limit               default    stage and what it bounds
==================  =========  ==============================================
max_source_bytes    1 000 000  parse: size of a rule file (its parse takes a few
                               seconds at most)
max_nesting         200        parse and check: constructs nested inside each
                               other (brackets, blocks, operators, ``else if``)
max_number          2**53 - 1  parse and run: the largest whole number, written
                               or worked out (exact in JSON in any language)
max_players         64         check: ``players 1..N``
max_die_sides       10 000     check: ``dN``
max_dice            100        check: dice in one roll (``roll 100d6``)
max_pool_outcomes   10 000     check: dice × sides in one roll
max_cards           100 000    check: cards in all decks together
max_steps           200 000    run: loop passes and turns between two moves
max_depth           200        run: rules and reactions called inside each other
max_idle_seats      10 000     run: seats passed over by the turn's ``when``
max_choices         10 000     run: different moves offered at one decision
==================  =========  ==============================================

An embedding program changes them by passing its own value::

    limits = rulelang.Limits(max_steps=1_000_000, max_source_bytes=10_000_000)
    game = rulelang.load("big.rules", limits=limits)     # parse, check, run
    state = game.new_game(players=3)                     # uses game.limits
    state = game.new_game(limits=rulelang.Limits(max_steps=5_000))  # or its own

Going past a limit is always a ``RulesetError`` that says which limit was hit
(and, where there is one, the line and column), never a hang or a crash.
"""

from __future__ import annotations

import attrs


def _positive(instance, attribute, value):
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"Limits.{attribute.name} must be a whole number of at least 1, "
                         f"not {value!r}")


@attrs.frozen
class Limits:
    """Bounds on what a ruleset may declare and do.  See the module
    documentation for each field."""

    max_steps: int = attrs.field(default=200_000, validator=_positive)
    max_depth: int = attrs.field(default=200, validator=_positive)
    max_source_bytes: int = attrs.field(default=1_000_000, validator=_positive, kw_only=True)
    max_nesting: int = attrs.field(default=200, validator=_positive, kw_only=True)
    max_number: int = attrs.field(default=2**53 - 1, validator=_positive, kw_only=True)
    max_players: int = attrs.field(default=64, validator=_positive, kw_only=True)
    max_die_sides: int = attrs.field(default=10_000, validator=_positive, kw_only=True)
    max_dice: int = attrs.field(default=100, validator=_positive, kw_only=True)
    max_pool_outcomes: int = attrs.field(default=10_000, validator=_positive, kw_only=True)
    max_cards: int = attrs.field(default=100_000, validator=_positive, kw_only=True)
    max_idle_seats: int = attrs.field(default=10_000, validator=_positive, kw_only=True)
    max_choices: int = attrs.field(default=10_000, validator=_positive, kw_only=True)


#: The limits used when none are given.
DEFAULT = Limits()
