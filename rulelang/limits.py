"""The limits that keep a mistaken or hostile ruleset from hanging the
computer or exhausting its memory.

One ``Limits`` value holds them all.  Every stage reads the ones it needs:

==================  ==========  =============================================
limit               default     stage and what it bounds
==================  ==========  =============================================
max_source_bytes    1 000 000   parse: size of a rule file or a data document
max_nodes           200 000     load: values (mappings, lists, scalars) in a
                                JSON/YAML document, a cache entry or a save
max_text            10 000      load: characters in one name, label or text
max_nesting         200         parse, load and check: constructs nested inside
                                each other (brackets, blocks, operators)
max_number          2**53 - 1   parse and run: the largest whole number, written
                                or worked out (exact in JSON in any language)
max_players         64          check: ``players 1..N``
max_die_sides       10 000      check: ``dN``
max_dice            100         check and run: dice in one roll or one pool
max_pool_outcomes   10 000      check: dice × sides in one roll
max_cards           100 000     check: cards in all decks together
max_stats           10 000      check: stats, piece values and constants
max_pieces          100 000     check: pieces in all piece sets together
max_rows            100 000     check: rows in all tables together
max_steps           200 000     run: work between two moves (loop passes,
                                turns, dice rolled, cards moved, log entries,
                                values made)
max_depth           200         run: rules and reactions called inside each other
max_idle_seats      10 000      run: seats passed over by the turn's ``when``
max_choices         10 000      run: different moves offered at one decision
max_values          1 000 000   run: values one state holds (stats, cards,
                                dice kept in pools, locals)
max_log_entries     1 000 000   run: entries in one game's log
max_save_bytes      10 000 000  restore: size of a saved state or a replay
max_history         100 000     restore: moves in a replay
==================  ==========  =============================================

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
    max_nodes: int = attrs.field(default=200_000, validator=_positive, kw_only=True)
    max_text: int = attrs.field(default=10_000, validator=_positive, kw_only=True)
    max_stats: int = attrs.field(default=10_000, validator=_positive, kw_only=True)
    max_pieces: int = attrs.field(default=100_000, validator=_positive, kw_only=True)
    max_rows: int = attrs.field(default=100_000, validator=_positive, kw_only=True)
    max_values: int = attrs.field(default=1_000_000, validator=_positive, kw_only=True)
    max_log_entries: int = attrs.field(default=1_000_000, validator=_positive, kw_only=True)
    max_save_bytes: int = attrs.field(default=10_000_000, validator=_positive, kw_only=True)
    max_history: int = attrs.field(default=100_000, validator=_positive, kw_only=True)


#: The limits used when none are given.
DEFAULT = Limits()
