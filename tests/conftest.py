"""The suite's shared set-up: the shipped games as session fixtures (each
loaded once per test process: ``helpers.shipped``), and the slowest tests
started first, so that under ``pytest -n auto`` no long test begins when
the rest are nearly done and leaves the other cores idle."""

from __future__ import annotations

import gc
import os

import pytest
from hypothesis import settings

from helpers import shipped

# Hypothesis draws the same examples on every run (a run that lands or
# not must not depend on luck); RULELANG_FUZZ_EXPLORE=1 draws new ones,
# to look for faults rather than to gate a change.
settings.register_profile("gate", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("explore" if os.environ.get("RULELANG_FUZZ_EXPLORE") else "gate")


@pytest.fixture(scope="session")
def northpole():
    """The shared North Pole game (play it; do not change it)."""
    return shipped("northpole.rules")


@pytest.fixture(scope="session")
def endurance():
    """The shared Endurance game (play it; do not change it)."""
    return shipped("endurance.rules")


@pytest.fixture(scope="session")
def shipped_game():
    """``shipped_game("cards.rules")``: any shipped game, shared."""
    return shipped


#: The tests that take about ten seconds or more on two cores (``--durations``),
#: slowest first.  They start before everything else, in this order; the
#: rest keep theirs.  (A test missing here only starts later: correct, just
#: possibly slower.)
SLOW_FIRST = (
    "tests/test_conformance.py::test_every_ruleset_conforms[endurance.rules]",
    "tests/test_conformance.py::test_every_ruleset_conforms[northpole.rules]",
    "tests/test_fuzz.py::test_mutations_of_the_rulesets",
    "tests/test_fuzz.py::test_any_ir_of_the_right_shape_loads_or_is_refused",
    "tests/test_conformance.py::test_every_ruleset_conforms[deepsea.rules]",
    "tests/test_fuzz.py::test_strings_from_the_grammar",
    "tests/test_conformance.py::test_every_ruleset_conforms[expedition.rules]",
    "tests/test_conformance.py::test_feature_rulesets_conform[cards.rules]",
    "tests/test_hermetic.py::test_loading_and_playing_every_ruleset_is_hermetic",
    "tests/test_conformance.py::test_workers_give_the_same_report",
    "tests/test_conformance.py::test_feature_rulesets_conform[features.rules]",
    "tests/test_fuzz.py::test_spaced_strings_from_the_grammar",
    "tests/test_conformance.py::test_the_conformance_command",
    "tests/test_trust.py::test_payloads_in_every_text_of_a_document_never_run[endurance]",
    "tests/test_hidden.py::test_games_that_keep_their_log_pass_the_hidden_check[endurance.rules]",
    "tests/test_data.py::test_any_ir_round_trips",
    "tests/test_saves.py::test_a_restored_state_plays_exactly_like_the_original[northpole.rules-explicit]",
)


#: The same for ``make test-long`` (RULELANG_LONG=1, 300 conformance games,
#: 1 000 fuzz examples), where other tests are the long ones.
SLOW_FIRST_LONG = (
    "tests/test_expedition_games.py::test_every_rule_fires_in_simulated_games",
    "tests/test_adapters_openspiel.py::test_random_sim_test_passes_on_every_ruleset_and_example[deepsea.rules]",
    "tests/test_conformance.py::test_every_ruleset_conforms[endurance.rules]",
    "tests/test_saves.py::test_corpus_of_tampered_saves[endurance.rules]",
    "tests/test_conformance.py::test_every_ruleset_conforms[northpole.rules]",
    "tests/test_trust.py::test_payloads_in_every_text_of_a_document_never_run[endurance]",
    "tests/test_trust.py::test_the_shape_check_agrees_with_the_published_schema[features]",
    "tests/test_saves.py::test_corpus_of_tampered_saves[northpole.rules]",
    "tests/test_fuzz.py::test_strings_from_the_grammar",
    "tests/test_trust.py::test_the_shape_check_agrees_with_the_published_schema[cards]",
    "tests/test_fuzz.py::test_any_ir_of_the_right_shape_loads_or_is_refused",
    "tests/test_fuzz.py::test_spaced_strings_from_the_grammar",
    "tests/test_trust.py::test_the_shape_check_agrees_with_the_published_schema[pieces]",
    "tests/test_fuzz.py::test_mutations_of_the_rulesets",
    "tests/test_trust.py::test_the_shape_check_agrees_with_the_published_schema[small]",
    "tests/test_saves.py::test_corpus_of_tampered_saves[cards.rules]",
    "tests/test_conformance.py::test_feature_rulesets_conform[cards.rules]",
    "tests/test_adapters_openspiel.py::test_random_sim_test_passes_on_every_ruleset_and_example[expedition.rules]",
    "tests/test_adapters_openspiel.py::test_random_sim_test_passes_on_every_ruleset_and_example[northpole.rules]",
)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    slow = SLOW_FIRST_LONG if os.environ.get("RULELANG_LONG") else SLOW_FIRST
    rank = {nodeid: i for i, nodeid in enumerate(slow)}
    items.sort(key=lambda item: rank.get(item.nodeid, len(rank)))


def pytest_collection_finish(session):
    """What the collection made (the test modules, their games, Hypothesis'
    strategies) lives until the end of the run: the garbage collector need
    not walk it again at every full collection (about half its time)."""
    gc.collect()
    gc.freeze()
