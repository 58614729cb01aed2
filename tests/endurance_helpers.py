"""Shared set-up for the Endurance scenario tests.

Every test plays in explicit chance mode, so each die, each card drawn and
each man drawn from the cup is forced by the test.  ``setup_game()`` plays
the whole setup with fixed draws and answers (see ``SETUP_GROUPS``) and
returns the state at the first decision of turn 1 ("Before drawing").  A
test then puts the men, Resources and cards where its rule needs them with
``arrange(...)`` (which only edits state, runs no rule) and plays on with
``play`` / ``roll`` / ``draw``.
"""

from __future__ import annotations

from typing import Dict, Iterable, Optional

from rulelang import CHANCE

from helpers import ROOT, labels, play, shipped

PATH = ROOT / "rulesets" / "endurance.rules"
GAME = shipped("endurance.rules")

CREW = list(GAME.prog.piece_names["crew"])
SUPPLIES = list(GAME.prog.piece_names["supplies"])
ANIMALS = list(GAME.prog.piece_names["animals"])
DOGS = [a for a in ANIMALS if a.startswith("Dogs")]

# The men drawn from the cup in setup, Group by Group (five each); the two
# left over (Bakewell 26, Blackborow 27) go to Groups 1 and 2.
SETUP_GROUPS = {
    1: ["Wild", "Worsley", "Greenstreet", "Crean", "Hudson"],
    2: ["Cheetham", "Wordie", "James", "Macklin", "McIlroy"],
    3: ["Clark", "Hussey", "Rickinson", "Kerr", "Hurley"],
    4: ["Marston", "Orde-Lees", "McNish", "Green", "Vincent"],
    5: ["McLeod", "McCarthy", "Holness", "Stephenson", "How"],
}
SETUP_SUPPLY = ["Pemmican 1", "Pemmican 2", "Canned Goods 1", "Meat 1", "Blubber 1",
                "Medical Supplies 1"]


def roll(state, *faces):
    """Force the next dice (explicit mode): one 'roll N' per face."""
    for face in faces:
        assert state.current_player == CHANCE, f"not a chance node: {labels(state)}"
        state.apply(f"roll {face}")
    return state


def draw(state, *names):
    """Force the next draws (cards, or men from the cup): 'draw NAME'."""
    for name in names:
        assert state.current_player == CHANCE, f"not a chance node: {labels(state)}"
        state.apply(f"draw {name}")
    return state


def setup_game(supply=SETUP_SUPPLY, first_hand=("01 Hunt 1 / Food P", "02 Sled / Heating")):
    """A new game in explicit mode with a fixed setup: the groups of
    ``SETUP_GROUPS``, the first hand given, these six Resources chosen.
    Every other setup draw takes the first card offered.  Returns the state
    at turn 1's first decision."""
    st = GAME.new_game(players=1, chance="explicit")
    for g in range(1, 6):
        draw(st, *SETUP_GROUPS[g])
    play(st, "Group 1", "Group 2")            # Bakewell, then Blackborow
    # 15 to the Discards, 15 to the Reserve, 2 Events to the Discards
    for _ in range(32):
        first = st.legal_moves()[0].label
        if first.startswith("draw") and any(first == f"draw {c}" for c in first_hand):
            first = next(m.label for m in st.legal_moves() if m.label[5:] not in first_hand)
        st.apply(first)
    draw(st, *first_hand)
    st.apply(st.legal_moves()[0])             # the Event shuffled into the Deck
    for name in supply:
        play(st, name)
    assert st.current_player == 0, labels(st)
    return st


def camp_data(state) -> Dict:
    """What the Camp Track's current space prints: heat, morale, hand."""
    return state.view(None)["tracks"]["camp"]


def man(state, name) -> Dict:
    return state.piece("crew", name)


def supply(state, name) -> Dict:
    return state.piece("supplies", name)


def animal(state, name) -> Dict:
    return state.piece("animals", name)


def set_man(state, name, side: Optional[str] = None, place: Optional[str] = None,
            group: Optional[int] = None):
    """Put a man on a side ('fresh' / 'demoralized'), in a place ('in_camp',
    'infirmary', 'dead', 'sailed', 'drowned') and a Group; his current Skill
    Level follows his side."""
    info = man(state, name)
    if side is not None:
        state.set_piece("crew", name, "side", side)
        state.set_piece("crew", name, "skill",
                        info["blue_skill"] if side == "fresh" else info["red_skill"])
    if place is not None:
        state.set_piece("crew", name, "place", place)
        if place != "in_camp" and group is None:
            state.set_piece("crew", name, "group", 0)
    if group is not None:
        state.set_piece("crew", name, "group", group)


def arrange(state, *, groups: Optional[Dict[int, Iterable[str]]] = None,
            demoralized: Iterable[str] = (), fresh: Iterable[str] = (),
            infirmary: Iterable[str] = (), dead: Iterable[str] = (),
            supply: Optional[Iterable[str]] = None, striped: Iterable[str] = (),
            on_endurance: Optional[Iterable[str]] = None,
            on_ocean_camp: Iterable[str] = (), beside: Optional[Iterable[str]] = None,
            dogs: Optional[int] = None, red_dogs: Iterable[str] = (), chippy: Optional[bool] = None,
            active_group: Optional[int] = None, hand: Optional[Iterable[str]] = None,
            main: Optional[Iterable[str]] = None, discard: Optional[Iterable[str]] = None,
            active: Optional[Iterable[str]] = None):
    """Edit the state for a scenario (no rule runs).

    - ``groups``: {group: [men]}; every man named is put in camp, Fresh,
      in that group; men not named anywhere keep their place.
    - ``demoralized`` / ``fresh``: flip these men.
    - ``infirmary`` / ``dead``: put these men there (Red side up).
    - ``supply``: exactly these counters are in the Supply (plain side up
      unless in ``striped``); the others go to ``on_endurance`` if given, else
      where they were unless they were in the Supply (then removed).
    - ``beside``: exactly these counters are beside the Display.
    - ``dogs``: how many Dog counters are in play (Blue unless in
      ``red_dogs``); ``chippy``: whether Mrs Chippy is in play.
    - ``hand`` / ``main`` / ``discard`` / ``active``: the cards in those piles.
    """
    if groups is not None:
        listed = {name for men in groups.values() for name in men}
        vacated = []
        for g, men in groups.items():
            for name in men:
                old = man(state, name)
                if old["place"] == "in_camp" and old["group"] not in groups:
                    vacated.append(old["group"])
                set_man(state, name, side="fresh", place="in_camp", group=g)
        # Men pushed out of the listed Groups take the places the listed men
        # left, so each listed Group holds exactly the men named.
        spare = [g for g in range(1, 6) if g not in groups]
        for name in CREW:
            info = man(state, name)
            if info["place"] == "in_camp" and info["group"] in groups and name not in listed:
                state.set_piece("crew", name, "group", vacated.pop(0) if vacated else spare[0])
    for name in fresh:
        set_man(state, name, side="fresh")
    for name in demoralized:
        set_man(state, name, side="demoralized")
    for name in infirmary:
        set_man(state, name, side="demoralized", place="infirmary")
    for name in dead:
        set_man(state, name, side="demoralized", place="dead")
    if supply is not None:
        chosen = set(supply)
        for name in SUPPLIES:
            where = state.piece("supplies", name)["at"]
            if name in chosen:
                state.set_piece("supplies", name, "at", "in_supply")
            elif where == "in_supply":
                state.set_piece("supplies", name, "at", "removed")
            state.set_piece("supplies", name, "side", "striped" if name in striped else "plain")
    else:
        for name in striped:
            state.set_piece("supplies", name, "side", "striped")
    if on_endurance is not None:
        for name in on_endurance:
            state.set_piece("supplies", name, "at", "on_endurance")
    for name in on_ocean_camp:
        state.set_piece("supplies", name, "at", "on_ocean_camp")
    if beside is not None:
        keep = set(beside)
        for name in SUPPLIES:
            where = state.piece("supplies", name)["at"]
            if name in keep:
                state.set_piece("supplies", name, "at", "beside")
            elif where == "beside":
                state.set_piece("supplies", name, "at", "removed")
    if dogs is not None:
        for i, name in enumerate(DOGS):
            state.set_piece("animals", name, "present", i < dogs)
            state.set_piece("animals", name, "side", "red" if name in red_dogs else "blue")
    if chippy is not None:
        state.set_piece("animals", "Mrs Chippy", "present", chippy)
    if active_group is not None:
        state.set_stat("active_group", active_group)
    for pile, cards in (("hand", hand), ("main", main), ("discard", discard), ("active", active)):
        if cards is not None:
            state.set_pile(pile, list(cards))
    return state


def start_turn_with(state, hand, **kw):
    """Arrange the scenario, give the hand (already full, so nothing is
    drawn), and play up to the Action choice."""
    arrange(state, hand=hand, **kw)
    play(state, "Draw the cards")
    return state


def in_supply(state):
    return sorted(n for n in SUPPLIES if supply(state, n)["at"] == "in_supply")


def group_of(state, g):
    return sorted(n for n in CREW if man(state, n)["place"] == "in_camp" and man(state, n)["group"] == g)
