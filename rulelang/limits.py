"""The limits that keep a mistaken or hostile ruleset from hanging the
computer or exhausting its memory.

One ``Limits`` value holds them all.  Every stage reads the ones it needs:

==================  ==========  =============================================
limit               default     stage and what it bounds
==================  ==========  =============================================
max_source_bytes    1 000 000   parse: size of a rule file or a data document
max_nodes           200 000     load: values (mappings, lists, scalars) in a
                                JSON/YAML document or a save
max_text            10 000      load: characters in one name, label or text;
                                run: a log line longer is cut there
max_nesting         200         parse, load and check: constructs nested inside
                                each other (brackets, blocks, operators)
max_number          2**53 - 1   parse and run: the largest whole number, written
                                or worked out (exact in JSON in any language);
                                arithmetic only compared is compared exactly
max_players         64          check: ``players 1..N``
max_die_sides       10 000      check: ``dN``
max_dice            100         check and run: dice in one roll or one pool
                                (pools put together with ``+`` too)
max_pool_outcomes   10 000      check: dice × sides in one roll
max_cards           100 000     check: cards in all decks together
max_stats           10 000      check: stats, piece values (a piece set's
                                state values × its pieces) and constants
max_pieces          100 000     check: pieces in all piece sets together
max_rows            100 000     check: rows in all tables together
max_steps           1 000 000   run: work between two moves, in steps (see
                                below): statements, values worked out, dice
                                rolled, cards drawn, moved or looked at,
                                pieces and players looked at, log entries
                                and the values in them, rules and turns begun
max_depth           200         run: rules and reactions called inside each other
max_idle_seats      10 000      run: seats passed over by the turn's ``when``
max_choices         10 000      run: different moves offered at one decision
max_values          1 000 000   load: values a state can hold: per-player
                                stats × the most players, global and piece
                                values, cards, and ``max_depth`` frames of
                                the rule with the most locals (a local holds
                                a number, a pool of at most ``max_dice``
                                dice, or cards of a pile)
max_log_entries     1 000 000   run: entries in one game's log (an entry
                                counts one more for each 100 characters)
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
Those checked on the ruleset (``check``) are reported at the declaration
that goes past them, naming the ``Limits`` field.

**Work** (``max_steps``) is counted in steps, a step being about the time
generated code takes to work out one value (tens of nanoseconds), so that
the limit stops any ruleset in well under a second; a legal move of the
shipped games takes a few thousand to a few tens of thousands.  What each
thing counts (``rulelang.engine.work.Work``, ``rulelang.engine.ops``)::

    a statement, a value worked out (a node of an expression)     1
    a card, piece or player a question, 'for each' or choice
      looks at; a card moved                                       1 each
    a die of a roll, a table or a test                             16
    a die of a pool; of a roll-off                                 32; 100
    a card drawn (and its log entry)                               40
    a log entry (of a statement, a roll, a phase ...)              40
    a value placed in a log line                                   8
    a rule, table or option called                                 10
    a frame the machine starts (a reaction, an 'on draw', a big
      or recursive rule, a row chosen)                             100 + its locals
    a turn                                                         100

Work known before it is done is counted where it starts, as one constant
worked out when the ruleset is loaded: a rule, table or turn when it
begins (all its statements, the larger side of each 'if', the first pass
of each loop), and each further pass of a loop at its jump back; so is a
small rule called, with its caller.  Work known only while playing is
counted as it comes: the cards a draw from a pile of more than 64 cards
may take (and each refill of its deck), the dice of a pool or a roll-off,
the dice a pool question looks at, a big or recursive rule called.  A
step past the limit stops the rules at once, naming the rule and line.
"""

from __future__ import annotations

import attrs


def _positive(instance: object, attribute: "attrs.Attribute[int]", value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"Limits.{attribute.name} must be a whole number of at least 1, "
                         f"not {value!r}")


@attrs.frozen
class Limits:
    """Bounds on what a ruleset may declare and do.  See the module
    documentation for each field."""

    max_steps: int = attrs.field(default=1_000_000, validator=_positive)
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
