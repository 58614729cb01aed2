"""Scenario tests for Endurance: the Actions.  The general dice rule
(EN-ACT), Hunt (EN-HUNT), Sled (EN-SLED) and Entertain (EN-ENT) in
endurance.checklist.md.

Every die is forced (explicit chance mode).  Unless a test says otherwise
the Active Group is Group 2 (so Shackleton, who rolls for Group 1, adds no
die) and holds PLAIN: five men of Blue Skill Level 4 with no special role,
so the target is 4 and five dice are rolled.  The other card of the hand is
a Morale card ("05 Sled / Morale" or "10 Hunt 1 / Morale"): its Test is
passed on the men's numbers (the auto-pass offer is declined), so what
happens to the men and the Supply comes from the Action.
"""

from __future__ import annotations

import pytest

from rulelang import CHANCE

from endurance_helpers import (CREW, DOGS, GAME, SUPPLIES, animal, arrange, group_of, in_supply,
                               labels, man, play, roll, setup_game, start_turn_with, supply)

BASE = setup_game()

# The men of the default Active Group: Blue Skill Level 4, no die symbol
# missing on the Blue side, no Dog Team Leader, hunter, entertainer,
# storekeeper or auto-pass man among them.
PLAIN = ["Wordie", "James", "Clark", "Rickinson", "McLeod"]

HUNT1 = "10 Hunt 1 / Morale"           # penalties: Hurley (15), Crean (4)
HUNT2 = "16 Hunt 2 / Food CM"          # penalties: Hurley (15), Kerr (14)
HUNT3 = "31 Hunt 3 / Food CCM"         # penalties: McNish (18), Crean (4)
HUNT1_RED = "13 Hunt 1 red / Food PM"
HUNT2_RED = "28 Hunt 2 red / Food PMM"
SLED = "05 Sled / Morale"              # penalties: Vincent (20), Blackborow (27)
ENT_BOOK = "03 Entertain book / Food C"  # penalties: Marston (16), Hussey (12)
ENT_CARDS = "18 Entertain cards / Food CC"  # penalties: Hudson (5), Worsley (2)
ENT_PHONO = "36 Entertain phonograph / Food C"
MORALE = "05 Sled / Morale"            # the Test card for a Hunt or Entertain
MORALE_H = "10 Hunt 1 / Morale"        # the Test card for a Sled

NO_WEAPON = "Hunt without a weapon"
WEAPON = "Hunt with a weapon"
WILD_YES = "Flip Wild to turn Failures into Successes: yes"
WILD_NO = "Flip Wild to turn Failures into Successes: no"
LEADER_YES = "Flip a Dog Team Leader to turn a Failure: yes"
LEADER_NO = "Flip a Dog Team Leader to turn a Failure: no"
SAVE_NO = "Flip Orde-Lees to save the Resource: no"
AUTO_NO = "Flip a man to pass the Test without Resources: no"
FETCH = "Fetch a Resource from The Endurance or Ocean Camp"
REFRESH = "Refresh a Demoralized man"
FLIP_ENT = "Flip Hussey or Hurley"
FLIP_CAT = "Flip Mrs Chippy"
KEEP = "Keep the Failures"
TAKE_MEAT = "Take a Meat counter (striped side up)"
FLIP_MEAT = "Flip a striped Meat in the Supply"


# ------------------------------------------------------------------ helpers

def game():
    return BASE.clone()


def card(name):
    """A card's designed data (its properties in 'deck main')."""
    prog = GAME.prog
    cid = prog.card_by_name[name]
    return {k: v.get(cid) for k, v in prog.card_props.items()}


def main_cards():
    return [n for n in GAME.prog.card_names if card(n)["action"] is not None]


def pools(state):
    """The faces of every pool of dice rolled so far (the Action rolls)."""
    return [e.value for e in state.log if e.kind == "pool"]


def roll_action(state, *faces):
    """Roll the Action's dice: exactly these faces, no more, no fewer."""
    before = len(pools(state))
    roll(state, *faces)
    after = pools(state)
    assert len(after) == before + 1, f"the Action rolled more than {len(faces)} dice"
    assert after[-1] == tuple(faces)
    return state


def at_chance(state):
    return state.current_player == CHANCE


def begin(state, action, test, hand=None, *, groups=None, active_group=2, **kw):
    """Start a turn with the hand [action, test] (or ``hand``) and choose
    them for the Action and the Test."""
    start_turn_with(state, hand=hand or [action, test],
                    groups=groups if groups is not None else {2: PLAIN},
                    active_group=active_group, **kw)
    play(state, f"Action: {action}", f"Test: {test}")
    return state


def last_log(state, start):
    """The last log line that begins with ``start``."""
    return next(e.text for e in reversed(state.log) if e.text.startswith(start))


def finish(state):
    """The Morale Test of the other card: no auto-pass; it must pass on the
    men's numbers, and the turn ends."""
    if AUTO_NO in labels(state):
        play(state, AUTO_NO)
    assert last_log(state, "the Test is") == "the Test is passed"
    assert "Draw the cards" in labels(state), labels(state)
    return state


def fresh(state, name):
    return man(state, name)["side"] == "fresh"


def new_in_supply(before, state):
    return sorted(set(in_supply(state)) - set(before))


def hunt(state, faces, *, action=HUNT1, weapon=None, wild=False, **kw):
    """A Hunt of the default kind: no red penguin, the weapon named (or
    none), these dice, Wild flipped or not when offered."""
    begin(state, action, MORALE, **kw)
    if weapon is None:
        play(state, NO_WEAPON)
    else:
        play(state, WEAPON, weapon)
    roll_action(state, *faces)
    if weapon is not None:
        roll(state, 6)                       # the weapon's Exhaustion check: no
    if WILD_NO in labels(state):
        play(state, WILD_YES if wild else WILD_NO)
    return state


def take_meat_and_blubber(state):
    """Take each Hunt reward as a new Meat counter."""
    while TAKE_MEAT in labels(state):
        play(state, TAKE_MEAT)
    return state


def sled(state, faces, *, extra=0, dogs=2, **kw):
    begin(state, SLED, MORALE_H, dogs=dogs, **kw)
    play(state, f"Extra dice for the Dogs: {extra}")
    roll_action(state, *faces)
    return state


def entertain(state, faces, *, action=ENT_BOOK, item="Playing Cards", exhaust_die=6, **kw):
    begin(state, action, MORALE, **kw)
    play(state, item)
    roll_action(state, *faces)
    roll(state, exhaust_die)
    return state


def all_fresh(state):
    """Every man Fresh (the men to be Red are then named in the scenario's
    ``demoralized``, which is applied after the Groups are made)."""
    arrange(state, fresh=CREW)
    return state


# ------------------------------------------------------------------ Action resolution

def test_act_01_three_actions_decided_by_the_card():
    """EN-ACT-01: every card's Action is Hunt, Sled or Entertain, and the
    card picked for its Action decides which is taken: a Hunt card asks for
    the weapon, a Sled card for the Dogs' extra dice, an Entertain card for
    the item."""
    assert {card(n)["action"] for n in main_cards()} == {"hunt", "sled", "entertain"}
    assert len(main_cards()) == 40

    st = game()
    begin(st, HUNT1, SLED)
    assert labels(st) == [NO_WEAPON]

    st = game()
    begin(st, SLED, HUNT1, dogs=2)
    assert labels(st) == [f"Extra dice for the Dogs: {n}" for n in range(3)]

    st = game()
    begin(st, ENT_BOOK, SLED, supply=["Book", "Phonograph"])
    assert sorted(labels(st)) == ["Book", "Phonograph"]

    # The same hand as the first, the other card for the Action: a Sled.
    st = game()
    begin(st, SLED, HUNT1, hand=[HUNT1, SLED], dogs=1)
    assert labels(st) == [f"Extra dice for the Dogs: {n}" for n in range(2)]


def test_act_02_one_die_per_man():
    """EN-ACT-02: one d6 per man of the Active Group: five men roll five
    dice, three men three, six men six."""
    for men in (PLAIN, PLAIN[:3], PLAIN + ["Holness"]):
        st = game()
        begin(st, HUNT1, MORALE, groups={2: men})
        play(st, NO_WEAPON)
        faces = [2] * len(men)
        roll_action(st, *faces)
        assert not at_chance(st)
        assert len(pools(st)[-1]) == len(men) == len(group_of(st, 2))


def test_act_03_no_die_symbol_no_die():
    """EN-ACT-03: a Demoralized man whose Red side has no die symbol (James,
    Clark: 'red_skill none') rolls no die; Demoralized men with a Red Skill
    Level still roll."""
    assert man(game(), "James")["red_skill"] is None
    st = game()
    begin(st, HUNT1, MORALE, demoralized=["James", "Clark", "Wordie"])
    play(st, NO_WEAPON)
    roll_action(st, 2, 2, 2)               # Wordie (Red 6), Rickinson, McLeod
    assert not at_chance(st)


def test_act_04_infirmary_men_roll_no_dice():
    """EN-ACT-04: a man in the Infirmary rolls no die and does not set the
    target, even if his old Group number were still on him: Wordie and
    Rickinson, Demoralized (Red 6), roll two dice against 6; Wild (Red 5)
    in the Infirmary would have made two 5s Successes."""
    st = game()
    arrange(st, groups={2: ["Wordie", "Rickinson"]}, infirmary=["Wild"])
    assert man(st, "Wild")["group"] == 0
    st.set_piece("crew", "Wild", "group", 2)
    begin(st, HUNT1, MORALE, groups={2: ["Wordie", "Rickinson"]},
          demoralized=["Wordie", "Rickinson"])
    play(st, NO_WEAPON)
    roll_action(st, 5, 5)
    assert st.stat("successes") == 0
    assert man(st, "Wild")["place"] == "infirmary"


def test_act_05_target_is_best_skill_level():
    """EN-ACT-05: the target is the lowest Skill Level in the Group
    (Worsley's 3 makes every 3 a Success), and men with no Skill Level
    (Red James and Hudson) do not set it: Wordie and Rickinson alone
    give a target of 4."""
    st = game()
    begin(st, HUNT1, MORALE, groups={2: ["Worsley"] + PLAIN[:4]})
    play(st, NO_WEAPON)
    roll_action(st, 3, 3, 2, 2, 4)
    assert st.stat("successes") == 3

    st = game()
    begin(st, HUNT1, MORALE, groups={2: ["Hudson", "James", "Wordie", "Rickinson"]},
          demoralized=["Hudson", "James"])
    play(st, NO_WEAPON)
    roll_action(st, 3, 4)
    assert st.stat("successes") == 1


def test_act_06_equal_or_better_is_a_success():
    """EN-ACT-06: against a target of 4 the 4 and the 5 are Successes, the
    3 and the 2s are not."""
    st = game()
    begin(st, HUNT1, MORALE)
    play(st, NO_WEAPON)
    roll_action(st, 3, 4, 5, 2, 2)
    assert (st.stat("successes"), st.stat("failures")) == (2, 0)


def test_act_07_natural_one_always_fails():
    """EN-ACT-07: a natural 1 is a Failure and never a Success, at the best
    target in the game (Worsley's 3) and even if a target were 1."""
    st = game()
    begin(st, HUNT1, MORALE, groups={2: ["Worsley"] + PLAIN[:4]})
    play(st, NO_WEAPON)
    roll_action(st, 1, 1, 3, 2, 6)
    assert (st.stat("successes"), st.stat("failures")) == (2, 2)

    st = game()
    begin(st, HUNT1, MORALE)
    st.set_piece("crew", "Wordie", "skill", 1)      # a made-up target of 1
    play(st, NO_WEAPON)
    roll_action(st, 1, 1, 2, 2, 2)
    assert (st.stat("successes"), st.stat("failures")) == (3, 2)


def test_act_08_failures_cancel_successes():
    """EN-ACT-08: each Failure cancels a Success: two Successes and one 1
    net one, too few for a two-penguin Hunt, whose Penalties follow.
    Reading: the net may fall below zero (one Success, two 1s): the counts
    are kept whole and the one-penguin Hunt fails."""
    st = game()
    hunt(st, [5, 6, 1, 2, 3], action=HUNT2, fresh=["Hurley", "Kerr"])
    assert (st.stat("successes"), st.stat("failures")) == (2, 1)
    assert not fresh(st, "Hurley") and not fresh(st, "Kerr")
    finish(st)

    st = game()
    before = in_supply(st)
    hunt(st, [5, 1, 1, 2, 3], fresh=["Hurley", "Crean"])
    assert (st.stat("successes"), st.stat("failures")) == (1, 2)
    assert in_supply(st) == before
    assert not fresh(st, "Hurley") and not fresh(st, "Crean")
    finish(st)


def test_act_09_reward_or_the_two_penalties():
    """EN-ACT-09: a Hunt that reaches its Successes gains its Reward and
    nobody is hurt; one that does not gains nothing and both Penalty men of
    the card (Hurley, Crean) are Demoralized."""
    st = game()
    before = in_supply(st)
    hunt(st, [5, 2, 2, 2, 2], fresh=["Hurley", "Crean"])
    take_meat_and_blubber(st)
    assert new_in_supply(before, st) == ["Blubber 2", "Meat 2"]
    assert fresh(st, "Hurley") and fresh(st, "Crean")
    finish(st)

    st = game()
    before = in_supply(st)
    hunt(st, [3, 2, 2, 2, 2], fresh=["Hurley", "Crean"])
    assert in_supply(st) == before
    assert not fresh(st, "Hurley") and not fresh(st, "Crean")
    assert man(st, "Hurley")["place"] == man(st, "Crean")["place"] == "in_camp"
    finish(st)


def test_act_10_worked_example():
    """EN-ACT-10: Crean, Hussey, Green, McLeod and Wordie roll five dice
    against Crean's 4; three Successes and one 1 net two, enough for a
    two-penguin Hunt."""
    st = game()
    before = in_supply(st)
    begin(st, HUNT2, MORALE, groups={2: ["Crean", "Hussey", "Green", "McLeod", "Wordie"]})
    play(st, NO_WEAPON)
    roll_action(st, 4, 5, 6, 1, 3)
    assert (st.stat("successes"), st.stat("failures")) == (3, 1)
    play(st, WILD_NO)
    take_meat_and_blubber(st)
    assert new_in_supply(before, st) == ["Blubber 2", "Meat 2", "Meat 3"]
    finish(st)


def test_act_11_mitigation_flips_a_blue_counter():
    """EN-ACT-11: flipping Wild turns a Failure into a Success; reading: the
    net rises by two (one Success and one 1 become two Successes), so a
    two-penguin Hunt succeeds.  Only a Blue counter can be flipped: a Red or
    injured Wild, Red Hussey and Hurley, a Red Mrs Chippy are not offered."""
    st = game()
    before = in_supply(st)
    hunt(st, [5, 1, 2, 3, 3], action=HUNT2, wild=True)
    assert not fresh(st, "Wild")
    assert (st.stat("successes"), st.stat("failures")) == (2, 0)
    take_meat_and_blubber(st)
    assert new_in_supply(before, st) == ["Blubber 2", "Meat 2", "Meat 3"]
    finish(st)

    for wild in ("demoralized", "infirmary"):
        st = game()
        begin(st, HUNT1, MORALE, **{wild: ["Wild"]})
        play(st, NO_WEAPON)
        roll_action(st, 5, 1, 2, 2, 2)
        assert WILD_NO not in labels(st) and WILD_YES not in labels(st)

    st = game()
    all_fresh(st)
    st.set_piece("animals", "Mrs Chippy", "side", "red")
    entertain(st, [5, 1, 2, 2, 2], supply=["Playing Cards"], demoralized=["Hussey"],
              infirmary=["Hurley"], chippy=True)
    assert animal(st, "Mrs Chippy")["side"] == "red"
    assert st.stat("failures") == 1
    assert FLIP_ENT not in labels(st) and FLIP_CAT not in labels(st)


def test_act_12_mitigation_after_the_roll_at_will():
    """EN-ACT-12: no flip is offered before the dice; after them it is
    offered only when there are Failures, and the player may decline
    (Wild stays Blue and the Failure stands)."""
    st = game()
    begin(st, HUNT1, MORALE)
    play(st, NO_WEAPON)
    assert at_chance(st)
    roll_action(st, 5, 2, 2, 2, 2)
    assert WILD_NO not in labels(st)        # no Failure: straight to the Reward
    assert TAKE_MEAT in labels(st)

    st = game()
    begin(st, HUNT1, MORALE, fresh=["Hurley", "Crean"])
    play(st, NO_WEAPON)
    roll_action(st, 5, 1, 2, 2, 2)
    assert sorted(labels(st)) == [WILD_NO, WILD_YES]
    play(st, WILD_NO)
    assert fresh(st, "Wild")
    assert (st.stat("successes"), st.stat("failures")) == (1, 1)
    assert not fresh(st, "Hurley")          # the Hunt failed
    finish(st)

    # Sled: the Dog Team Leader offer comes after the dice, and may stop.
    st = game()
    begin(st, SLED, MORALE_H, dogs=1, groups={2: ["Crean"] + PLAIN[:4]})
    play(st, "Extra dice for the Dogs: 0")
    assert at_chance(st)
    roll_action(st, 5, 1, 2, 2, 2)
    play(st, LEADER_NO)
    assert fresh(st, "Crean")
    assert st.stat("failures") == 1


# ------------------------------------------------------------------ Hunt

@pytest.mark.parametrize("action,need", [(HUNT1, 1), (HUNT2, 2), (HUNT3, 3)])
def test_hunt_01_one_success_per_penguin(action, need):
    """EN-HUNT-01: a Hunt needs one Success per penguin icon: one fewer
    fails (its top Penalty man is Demoralized), exactly that many succeeds."""
    assert card(action)["penguins"] == need
    top = next(n for n in CREW if man(BASE, n)["id"] == card(action)["top"])

    st = game()
    hunt(st, [6] * (need - 1) + [2] * (6 - need), action=action, fresh=[top])
    assert not fresh(st, top)

    st = game()
    before = in_supply(st)
    hunt(st, [6] * need + [2] * (5 - need), action=action, fresh=[top])
    take_meat_and_blubber(st)
    assert fresh(st, top)
    assert len(new_in_supply(before, st)) == need + 1


def test_hunt_01_data_penguins():
    """EN-HUNT-01 (data): every Hunt card shows one, two or three penguins,
    and every other card none."""
    counts = {n: card(n)["penguins"] for n in main_cards() if card(n)["action"] == "hunt"}
    assert set(counts.values()) == {1, 2, 3}
    assert all(card(n)["penguins"] is None for n in main_cards() if card(n)["action"] != "hunt")


def test_hunt_02_red_penguin_demoralizes_first():
    """EN-HUNT-02: a red penguin makes the player Demoralize a man of the
    Active Group, of their choice (only its Blue men are offered), before
    rolling: James, flipped, shows no die, so four dice are rolled."""
    st = game()
    begin(st, HUNT1_RED, MORALE, demoralized=["McLeod"])
    assert sorted(labels(st)) == sorted(["Wordie", "James", "Clark", "Rickinson"])
    play(st, "James")
    assert not fresh(st, "James")
    assert labels(st) == [NO_WEAPON]
    play(st, NO_WEAPON)
    roll_action(st, 5, 2, 2, 2)               # Wordie, Clark, Rickinson, McLeod
    assert st.stat("successes") == 1


def test_hunt_02_red_penguin_no_blue_man():
    """EN-HUNT-02, reading: with no Blue man in the Active Group nobody is
    Demoralized (no one outside the Group either) and the Hunt goes on."""
    st = game()
    begin(st, HUNT1_RED, MORALE, groups={2: ["Wordie", "Rickinson"]},
          demoralized=["Wordie", "Rickinson"])
    blue = sorted(n for n in CREW if fresh(st, n))
    assert labels(st) == [NO_WEAPON]
    assert sorted(n for n in CREW if fresh(st, n)) == blue
    play(st, NO_WEAPON)
    roll_action(st, 6, 2)
    assert st.stat("successes") == 1


def test_hunt_03_one_weapon_from_the_supply():
    """EN-HUNT-03: a weapon may be used only if it is in the Supply (the
    Shotgun on The Endurance is not offered), using one is optional, and
    only one is used: one weapon's extra die, not two."""
    st = game()
    begin(st, HUNT1, MORALE, supply=["Revolver", "Rifle"])
    assert sorted(labels(st)) == [WEAPON, NO_WEAPON]
    assert supply(st, "Shotgun")["at"] == "on_endurance"
    play(st, WEAPON)
    assert sorted(labels(st)) == ["Revolver", "Rifle"]
    play(st, "Revolver")
    assert at_chance(st)
    roll_action(st, 2, 2, 2, 2, 2, 2)         # five men and the Revolver's one
    roll(st, 6)
    assert not at_chance(st)

    st = game()
    begin(st, HUNT1, MORALE, supply=["Pemmican 1", "Book"])
    assert labels(st) == [NO_WEAPON]


def test_hunt_04_weapon_sets_the_target():
    """EN-HUNT-04: with a weapon the target is its Skill Level (designed:
    Revolver 4, Rifle 3, Shotgun 4), instead of the Group's: the Rifle
    makes 3s Successes for a Group whose best is 4, and the Revolver makes
    3s fail for a Group with Worsley (3)."""
    assert {w: supply(BASE, w)["aim"] for w in ("Revolver", "Rifle", "Shotgun")} == \
        {"Revolver": 4, "Rifle": 3, "Shotgun": 4}
    st = game()
    hunt(st, [3, 3, 4, 2, 2, 2], weapon="Rifle", supply=["Rifle"])
    assert st.stat("successes") == 3

    st = game()
    hunt(st, [3, 3, 3, 3, 3, 3], weapon="Revolver", supply=["Revolver"],
         groups={2: ["Worsley"] + PLAIN[:4]})
    assert st.stat("successes") == 0


@pytest.mark.parametrize("weapon", ["Revolver", "Rifle"])
def test_hunt_05_revolver_or_rifle_one_extra_die(weapon):
    """EN-HUNT-05: the Revolver or the Rifle adds one die: five men roll
    six dice."""
    st = game()
    hunt(st, [2] * 6, weapon=weapon, supply=[weapon])
    assert len(pools(st)[-1]) == 6


def test_hunt_06_shotgun_two_extra_dice():
    """EN-HUNT-06: the Shotgun adds two dice: five men roll seven."""
    st = game()
    hunt(st, [2] * 7, weapon="Shotgun", supply=["Shotgun"])
    assert len(pools(st)[-1]) == 7


def test_hunt_07_weapon_exhaustion_check():
    """EN-HUNT-07: after the Hunt's dice the weapon used is checked for
    Exhaustion: a 1 (its red die 1) flips the Revolver to striped, a 2
    leaves it; a striped Revolver on a 2 (red die 2) is removed.  The
    unused Rifle is not checked."""
    for side, die, result in (("plain", 1, ("in_supply", "striped")),
                              ("plain", 2, ("in_supply", "plain")),
                              ("striped", 2, ("removed", "striped"))):
        st = game()
        begin(st, HUNT1, MORALE, supply=["Revolver", "Rifle"],
              striped=["Revolver"] if side == "striped" else [], demoralized=["Orde-Lees"])
        play(st, WEAPON, "Revolver")
        roll_action(st, 5, 2, 2, 2, 2, 2)
        assert at_chance(st)
        roll(st, die)
        assert not at_chance(st)
        rev = supply(st, "Revolver")
        assert (rev["at"], rev["side"]) == result
        assert (supply(st, "Rifle")["at"], supply(st, "Rifle")["side"]) == ("in_supply", "plain")


def test_hunt_08_wild_outside_the_group_turns_one():
    """EN-HUNT-08: Wild, Blue in Group 1, turns one Failure of Group 2's
    Hunt into a Success (one, though there are two) and is Demoralized."""
    st = game()
    assert man(st, "Wild")["group"] == 1
    before = in_supply(st)
    hunt(st, [5, 1, 1, 2, 2], wild=True)
    assert not fresh(st, "Wild")
    assert (st.stat("successes"), st.stat("failures")) == (2, 1)
    take_meat_and_blubber(st)
    assert new_in_supply(before, st) == ["Blubber 2", "Meat 2"]
    finish(st)


def test_hunt_09_wild_in_the_group_turns_two():
    """EN-HUNT-09: Wild in the Active Group turns two Failures: one Success
    and two 1s become three Successes, enough for two penguins; with only
    one Failure he turns just that one."""
    group = ["Wild"] + PLAIN[:4]
    st = game()
    before = in_supply(st)
    hunt(st, [4, 1, 1, 2, 2], action=HUNT2, wild=True, groups={2: group})
    assert not fresh(st, "Wild")
    assert (st.stat("successes"), st.stat("failures")) == (3, 0)
    take_meat_and_blubber(st)
    assert new_in_supply(before, st) == ["Blubber 2", "Meat 2", "Meat 3"]
    finish(st)

    st = game()
    hunt(st, [4, 1, 2, 2, 2], action=HUNT2, wild=True, groups={2: group})
    assert (st.stat("successes"), st.stat("failures")) == (2, 0)


@pytest.mark.parametrize("action,meat", [(HUNT2_RED, 2), (HUNT3, 3), (HUNT1, 1)])
def test_hunt_10_reward_meat_per_penguin_one_blubber(action, meat):
    """EN-HUNT-10: a successful Hunt gains one Meat per penguin icon (the
    red one too) and one Blubber in all."""
    st = game()
    before = in_supply(st)
    begin(st, action, MORALE)
    if card(action)["red_penguin"]:
        play(st, "Rickinson")
    play(st, NO_WEAPON)
    roll_action(st, 6, 6, 6, 6, 2)
    take_meat_and_blubber(st)
    gained = new_in_supply(before, st)
    assert sum(supply(st, n)["type"] == "meat" for n in gained) == meat
    assert sum(supply(st, n)["type"] == "blubber" for n in gained) == 1
    assert len(gained) == meat + 1
    finish(st)


def test_hunt_11_meat_enters_striped():
    """EN-HUNT-11: hunted Meat enters the Supply striped side up (the
    Blubber plain)."""
    st = game()
    hunt(st, [6, 2, 2, 2, 2], action=HUNT1)
    take_meat_and_blubber(st)
    assert supply(st, "Meat 2")["at"] == "in_supply"
    assert supply(st, "Meat 2")["side"] == "striped"
    assert supply(st, "Blubber 2")["side"] == "plain"


def test_hunt_12_flip_a_striped_meat_instead():
    """EN-HUNT-12: instead of a new counter, a gained Meat may flip a
    striped Meat in the Supply to its plain side; each Meat chooses."""
    st = game()
    hunt(st, [6, 6, 2, 2, 2], action=HUNT2, supply=["Meat 1", "Pemmican 1"], striped=["Meat 1"])
    assert sorted(labels(st)) == sorted([TAKE_MEAT, FLIP_MEAT])
    play(st, FLIP_MEAT)
    assert labels(st) == ["Meat 1"]
    play(st, "Meat 1")
    assert supply(st, "Meat 1")["side"] == "plain"
    # the second Meat: nothing striped left to flip, a new counter
    assert labels(st) == [TAKE_MEAT]
    play(st, TAKE_MEAT)
    meat = [n for n in in_supply(st) if n.startswith("Meat")]
    assert meat == ["Meat 1", "Meat 2"]
    assert supply(st, "Meat 2")["side"] == "striped"
    assert len([n for n in in_supply(st) if n.startswith("Blubber")]) == 1


def test_hunt_13_from_beside_the_display_first():
    """EN-HUNT-13: hunted Meat and Blubber come from the counters beside the
    Display; reading: removed counters only once those run out.  With Meat
    2 and Blubber 2 removed and Meat 4, Blubber 5 beside, the beside ones
    come in."""
    st = game()
    arrange(st, beside=["Meat 4", "Blubber 5"])
    assert supply(st, "Meat 2")["at"] == "removed"
    hunt(st, [6, 2, 2, 2, 2])
    take_meat_and_blubber(st)
    assert supply(st, "Meat 4")["at"] == "in_supply"
    assert supply(st, "Blubber 5")["at"] == "in_supply"
    assert supply(st, "Meat 2")["at"] == "removed"


def test_hunt_13_pool_beside_then_removed_then_full():
    """EN-HUNT-13: the hunted counters come from beside the Display (never
    from The Endurance); reading: with none left beside, from the removed
    counters; with the Supply full (12) no new counter comes, though a
    striped Meat may still be flipped."""
    st = game()
    arrange(st, beside=["Meat 4", "Blubber 5"], on_endurance=["Meat 6"])
    hunt(st, [6, 2, 2, 2, 2])
    take_meat_and_blubber(st)
    assert supply(st, "Meat 6")["at"] == "on_endurance"
    assert len([n for n in in_supply(st) if n.startswith("Meat")]) == 2
    assert len([n for n in in_supply(st) if n.startswith("Blubber")]) == 2

    st = game()
    arrange(st, beside=[])
    assert all(supply(st, f"Meat {i}")["at"] == "removed" for i in range(2, 7))
    hunt(st, [6, 2, 2, 2, 2])
    take_meat_and_blubber(st)
    assert supply(st, "Meat 2")["at"] == "in_supply"
    assert supply(st, "Meat 2")["side"] == "striped"
    assert supply(st, "Blubber 2")["at"] == "in_supply"

    full = [n for n in SUPPLIES if not n.startswith(("Meat", "Blubber"))][:11] + ["Meat 1"]
    st = game()
    hunt(st, [6, 2, 2, 2, 2], supply=full, striped=["Meat 1"])
    assert labels(st) == [FLIP_MEAT]
    play(st, FLIP_MEAT, "Meat 1")
    assert sorted(in_supply(st)) == sorted(full)
    assert supply(st, "Meat 1")["side"] == "plain"
    assert supply(st, "Blubber 2")["at"] == "beside"
    finish(st)


# ------------------------------------------------------------------ Sled

def test_sled_01_one_success_reward_grows():
    """EN-SLED-01: a Sled with no extra dice needs one Success; one net
    Success gives one reward, three give three; none fails with the card's
    Penalties (Vincent, Blackborow)."""
    for faces, rewards in (([5, 2, 2, 2, 2], 1), ([5, 6, 6, 2, 2], 3)):
        st = game()
        before = in_supply(st)
        sled(st, faces, fresh=["Vincent", "Blackborow"])
        for item in ["Book", "Phonograph", "Rifle"][:rewards]:
            play(st, FETCH, item)
        assert len(new_in_supply(before, st)) == rewards
        assert fresh(st, "Vincent") and fresh(st, "Blackborow")
        finish(st)

    st = game()
    before = in_supply(st)
    sled(st, [3, 2, 2, 2, 2], fresh=["Vincent", "Blackborow"])
    assert in_supply(st) == before
    assert not fresh(st, "Vincent") and not fresh(st, "Blackborow")
    finish(st)


def test_sled_02_no_dogs_fails():
    """EN-SLED-02: with no Dog counter in play (Mrs Chippy is no Dog) the
    Sled fails at once: no dice, and the card's Penalties."""
    st = game()
    n = len(pools(st))
    begin(st, SLED, MORALE_H, dogs=0, chippy=True, fresh=["Vincent", "Blackborow"])
    assert not at_chance(st)
    assert not any(l.startswith("Extra dice") for l in labels(st))
    assert len(pools(st)) == n
    assert not fresh(st, "Vincent") and not fresh(st, "Blackborow")
    finish(st)


def test_sled_03_dog_dice_raise_the_need():
    """EN-SLED-03: one extra die may be added per Dog counter in play, Blue
    or Red, each raising the Successes needed by one; reading: chosen one
    by one (0, 1 or 2 with two Dogs).  Two net Successes: enough with one
    Dog die, too few with two."""
    st = game()
    begin(st, SLED, MORALE_H, dogs=2, red_dogs=[DOGS[1]])
    assert labels(st) == [f"Extra dice for the Dogs: {n}" for n in range(3)]

    st = game()
    before = in_supply(st)
    sled(st, [6, 6, 2, 2, 2, 2, 2], extra=2, fresh=["Vincent", "Blackborow"])
    assert in_supply(st) == before
    assert not fresh(st, "Vincent")

    st = game()
    sled(st, [6, 6, 2, 2, 2, 2], extra=1, fresh=["Vincent", "Blackborow"])
    play(st, FETCH, "Book", FETCH, "Phonograph")
    assert {"Book", "Phonograph"} <= set(in_supply(st))
    assert fresh(st, "Vincent")
    finish(st)


def test_sled_04_dog_team_leaders_data():
    """EN-SLED-04 (data): the six Dog Team Leaders are Wild (1), Greenstreet
    (3), Crean (4), Macklin (9), McIlroy (10) and Marston (16)."""
    leaders = {n: man(BASE, n)["id"] for n in CREW if man(BASE, n)["dog_leader"]}
    assert leaders == {"Wild": 1, "Greenstreet": 3, "Crean": 4, "Macklin": 9,
                       "McIlroy": 10, "Marston": 16}


def test_sled_05_leaders_in_the_group_turn_failures():
    """EN-SLED-05: each Blue Dog Team Leader of the Active Group may be
    flipped to turn one Failure; several may be; Wild and Greenstreet,
    leaders in Group 1, are not offered."""
    st = game()
    sled(st, [4, 1, 1, 1, 2], dogs=2, groups={2: ["Crean", "Macklin", "Wordie", "James", "Clark"]})
    assert (st.stat("successes"), st.stat("failures")) == (1, 3)
    play(st, LEADER_YES)
    assert sorted(labels(st)) == ["Crean", "Macklin"]
    play(st, "Crean", LEADER_YES)
    assert labels(st) == ["Macklin"]
    play(st, "Macklin")
    # no Blue leader left in the Group: no more offers
    assert LEADER_YES not in labels(st)
    assert not fresh(st, "Crean") and not fresh(st, "Macklin")
    assert fresh(st, "Wild") and fresh(st, "Greenstreet")
    assert (st.stat("successes"), st.stat("failures")) == (3, 1)


def test_sled_06_each_failure_hurts_a_dog_even_on_success():
    """EN-SLED-06: each unmitigated Failure flips a Blue Dog to Red;
    reading: also when the Sled succeeds (three Successes, one 1: one Dog
    Red, two rewards), and on a failed Sled (two 1s: two Dogs Red)."""
    st = game()
    sled(st, [5, 6, 6, 1, 2], dogs=3)
    assert [animal(st, d)["side"] for d in DOGS[:3]].count("red") == 1
    assert all(animal(st, d)["present"] for d in DOGS[:3])
    play(st, FETCH, "Book", FETCH, "Phonograph")
    assert {"Book", "Phonograph"} <= set(in_supply(st))
    finish(st)

    st = game()
    sled(st, [1, 1, 2, 2, 2], dogs=3, fresh=["Vincent"])
    assert [animal(st, d)["side"] for d in DOGS[:3]].count("red") == 2
    assert not fresh(st, "Vincent")

    # a Failure turned by a leader costs no Dog
    st = game()
    sled(st, [5, 1, 2, 2, 2], dogs=1, groups={2: ["Macklin"] + PLAIN[:4]})
    play(st, LEADER_YES, "Macklin")
    assert animal(st, DOGS[0])["side"] == "blue"


def test_sled_07_no_blue_dog_removes_a_red_one():
    """EN-SLED-07: a Dog casualty with no Blue Dog left removes a Red Dog
    from the game; with one Blue and one Red Dog, two Failures turn the Blue
    one Red and then remove one."""
    st = game()
    sled(st, [5, 1, 2, 2, 2], dogs=2, red_dogs=DOGS[:2])
    present = [d for d in DOGS if animal(st, d)["present"]]
    assert len(present) == 1 and animal(st, present[0])["side"] == "red"

    st = game()
    sled(st, [5, 6, 6, 1, 1], dogs=2, red_dogs=[DOGS[1]])
    present = [d for d in DOGS if animal(st, d)["present"]]
    assert len(present) == 1 and animal(st, present[0])["side"] == "red"


def test_sled_08_fetch_from_the_endurance_or_ocean_camp():
    """EN-SLED-08: each net Success may bring a Resource from The Endurance
    card or the Ocean Camp card into the Supply (not one beside the
    Display)."""
    st = game()
    arrange(st, on_ocean_camp=["Phonograph"])
    sled(st, [5, 6, 2, 2, 2])
    play(st, FETCH)
    offered = set(labels(st))
    assert {"Book", "Phonograph", "Shotgun"} <= offered
    assert "Meat 2" not in offered and "Pemmican 1" not in offered
    play(st, "Phonograph", FETCH, "Book")
    assert supply(st, "Phonograph")["at"] == "in_supply"
    assert supply(st, "Book")["at"] == "in_supply"
    finish(st)


def test_sled_09_refresh_any_man_not_injured_mixed():
    """EN-SLED-09: a net Success may instead flip any Red man (in any
    Group) to Blue, never one in the Infirmary; the two rewards mix, one
    choice per Success."""
    st = game()
    all_fresh(st)
    sled(st, [5, 6, 2, 2, 2], demoralized=["Hurley", "McCarthy"], infirmary=["Kerr"])
    assert sorted(labels(st)) == sorted([FETCH, REFRESH])
    play(st, REFRESH)
    assert sorted(labels(st)) == ["Hurley", "McCarthy"]
    play(st, "Hurley", FETCH, "Book")
    assert fresh(st, "Hurley") and not fresh(st, "McCarthy")
    assert man(st, "Kerr")["place"] == "infirmary" and not fresh(st, "Kerr")
    assert supply(st, "Book")["at"] == "in_supply"
    finish(st)


# ------------------------------------------------------------------ Entertain

def test_ent_01_one_success_reward_grows():
    """EN-ENT-01: Entertain needs one net Success; one gives one man back
    to Blue, two give two; none fails with the card's Penalties (Marston,
    Hussey)."""
    for faces, cheered in (([5, 2, 2, 2, 2], 1), ([5, 6, 2, 2, 2], 2)):
        st = game()
        all_fresh(st)
        entertain(st, faces, supply=["Playing Cards"], demoralized=["Wordie", "Rickinson", "McLeod"])
        for _ in range(cheered):
            play(st, labels(st)[0])
        assert sum(fresh(st, n) for n in ("Wordie", "Rickinson", "McLeod")) == cheered
        assert fresh(st, "Marston") and fresh(st, "Hussey")
        finish(st)

    st = game()
    all_fresh(st)
    entertain(st, [3, 2, 2, 2, 2], supply=["Playing Cards"], demoralized=["Wordie"])
    assert not fresh(st, "Wordie")
    assert not fresh(st, "Marston") and not fresh(st, "Hussey")
    finish(st)


def test_ent_02_needs_an_item_in_the_supply():
    """EN-ENT-02: Entertain uses the Phonograph, Playing Cards or Book of
    the Supply (only those are offered); reading: without one (the Book on
    The Endurance does not count) the card may still be picked but the
    Action fails at once, no dice, with its Penalties."""
    st = game()
    begin(st, ENT_BOOK, MORALE, supply=["Phonograph", "Playing Cards", "Rifle", "Pemmican 1"])
    assert sorted(labels(st)) == ["Phonograph", "Playing Cards"]

    st = game()
    all_fresh(st)
    n = len(pools(st))
    start_turn_with(st, hand=[ENT_BOOK, MORALE], groups={2: PLAIN}, active_group=2)
    assert f"Action: {ENT_BOOK}" in labels(st)
    assert supply(st, "Book")["at"] == "on_endurance"
    play(st, f"Action: {ENT_BOOK}", f"Test: {MORALE}")
    assert not at_chance(st)
    assert len(pools(st)) == n
    assert not fresh(st, "Marston") and not fresh(st, "Hussey")
    finish(st)


def test_ent_03_any_item_not_only_the_pictured_one():
    """EN-ENT-03: the Book card may be played with the Phonograph: it
    rolls and its Successes count."""
    st = game()
    all_fresh(st)
    entertain(st, [5, 2, 2, 2, 2], item="Phonograph", supply=["Phonograph", "Book"],
              demoralized=["Wordie"])
    assert st.stat("successes") == 1
    play(st, "Wordie")
    assert fresh(st, "Wordie")
    finish(st)


@pytest.mark.parametrize("action,item,dice", [
    (ENT_BOOK, "Book", 6), (ENT_BOOK, "Playing Cards", 5),
    (ENT_CARDS, "Playing Cards", 6), (ENT_CARDS, "Book", 5)])
def test_ent_04_pictured_item_one_extra_die(action, item, dice):
    """EN-ENT-04: the item pictured on the card rolls one extra die; any
    other item does not."""
    st = game()
    entertain(st, [2] * dice, action=action, item=item, supply=["Book", "Playing Cards"])
    assert len(pools(st)[-1]) == dice


def test_ent_05_item_exhaustion_check():
    """EN-ENT-05: the chosen item (here not the pictured Phonograph) is
    checked for Exhaustion after the dice:
    the Book (red die 1) on a 1 turns striped, on a 2 stays; striped
    Playing Cards (red die 2) on a 2 are removed; the item not chosen is
    not checked."""
    for item, striped, die, result in (("Book", [], 1, ("in_supply", "striped")),
                                       ("Book", [], 2, ("in_supply", "plain")),
                                       ("Playing Cards", ["Playing Cards"], 2,
                                        ("removed", "striped"))):
        st = game()
        entertain(st, [5, 2, 2, 2, 2], action=ENT_PHONO, item=item, exhaust_die=die,
                  supply=["Book", "Playing Cards", "Phonograph"], striped=striped,
                  demoralized=["Orde-Lees"])
        got = supply(st, item)
        assert (got["at"], got["side"]) == result
        assert supply(st, "Phonograph")["side"] == "plain"
        assert not at_chance(st)


def test_ent_06_hussey_hurley_mrs_chippy_turn_failures():
    """EN-ENT-06: Hussey, Hurley and Mrs Chippy may each be flipped to turn
    one Failure; reading: Hussey and Hurley need not be in the Active Group
    (here both are in Group 3)."""
    st = game()
    all_fresh(st)
    arrange(st, groups={3: ["Hussey", "Hurley", "Kerr"]}, chippy=True)
    entertain(st, [5, 1, 1, 1, 2], supply=["Playing Cards"])
    assert (st.stat("successes"), st.stat("failures")) == (1, 3)
    assert sorted(labels(st)) == sorted([FLIP_ENT, FLIP_CAT, KEEP])
    play(st, FLIP_ENT)
    assert sorted(labels(st)) == ["Hurley", "Hussey"]
    play(st, "Hussey", FLIP_ENT)
    assert labels(st) == ["Hurley"]
    play(st, "Hurley")
    assert sorted(labels(st)) == sorted([FLIP_CAT, KEEP])
    play(st, FLIP_CAT)
    assert (st.stat("successes"), st.stat("failures")) == (4, 0)
    assert not fresh(st, "Hussey") and not fresh(st, "Hurley")
    assert animal(st, "Mrs Chippy")["side"] == "red"
    assert man(st, "Hussey")["group"] == 3


def test_ent_06_keep_the_failures():
    """EN-ENT-06: the flips are optional: keeping the Failure leaves Hussey,
    Hurley and Mrs Chippy Blue and the Entertain fails."""
    st = game()
    all_fresh(st)
    arrange(st, chippy=True)
    entertain(st, [5, 1, 2, 2, 2], action=ENT_CARDS, item="Book",
              supply=["Playing Cards", "Book"])
    play(st, KEEP)
    assert fresh(st, "Hussey") and fresh(st, "Hurley")
    assert animal(st, "Mrs Chippy")["side"] == "blue"
    assert not fresh(st, "Hudson") and not fresh(st, "Worsley")   # the card's Penalties
    finish(st)


def test_ent_07_mrs_chippy_never_comes_back():
    """EN-ENT-07: reading: it is Mrs Chippy who cannot be flipped back.
    Hussey, flipped in the same Entertain, is cheered up by its own reward,
    while Mrs Chippy stays Red, and next time she is not offered."""
    st = game()
    all_fresh(st)
    arrange(st, chippy=True)
    group = ["Hussey", "Wordie", "Rickinson", "McLeod", "Holness"]
    entertain(st, [5, 1, 1, 2, 2], supply=["Playing Cards"], groups={2: group})
    play(st, FLIP_ENT, "Hussey", FLIP_CAT)
    assert (st.stat("successes"), st.stat("failures")) == (3, 0)
    assert labels(st) == ["Hussey"]            # the only Red man of the Group
    play(st, "Hussey")
    assert fresh(st, "Hussey")
    assert animal(st, "Mrs Chippy")["side"] == "red"
    while not ("Draw the cards" in labels(st) or AUTO_NO in labels(st)):
        play(st, labels(st)[0])
    finish(st)
    assert animal(st, "Mrs Chippy")["side"] == "red"

    # Next turn: a Failure, Hussey and Hurley Red: no flip is offered.
    entertain(st, [5, 1, 2, 2, 2], supply=["Playing Cards"], discard=[],
              demoralized=["Hussey", "Hurley"])
    assert FLIP_CAT not in labels(st) and FLIP_ENT not in labels(st)


def test_ent_08_successes_refresh_the_active_group():
    """EN-ENT-08: each net Success flips a Red man of the Active Group to
    Blue, and only those are offered while any remains (Kerr, Red in Group
    3, is not)."""
    st = game()
    all_fresh(st)
    entertain(st, [5, 6, 2, 2, 2], supply=["Playing Cards"],
              demoralized=["Wordie", "Rickinson", "McLeod", "Kerr"])
    assert labels(st) == ["Wordie", "Rickinson", "McLeod"]
    play(st, "McLeod")
    assert labels(st) == ["Wordie", "Rickinson"]
    play(st, "Wordie")
    assert fresh(st, "Wordie") and fresh(st, "McLeod")
    assert not fresh(st, "Rickinson") and not fresh(st, "Kerr")
    finish(st)


def test_ent_09_leftover_successes_refresh_others():
    """EN-ENT-09: once the Active Group is all Blue, the Successes left flip
    Red men elsewhere, never one in the Infirmary."""
    st = game()
    all_fresh(st)
    entertain(st, [5, 6, 6, 2, 2], supply=["Playing Cards"], demoralized=["Wordie", "Kerr", "How"],
              infirmary=["Vincent"])
    assert labels(st) == ["Wordie"]
    play(st, "Wordie")
    assert sorted(labels(st)) == ["How", "Kerr"]
    play(st, "Kerr")
    assert labels(st) == ["How"]
    play(st, "How")
    assert fresh(st, "Wordie") and fresh(st, "Kerr") and fresh(st, "How")
    assert man(st, "Vincent")["place"] == "infirmary" and not fresh(st, "Vincent")
    finish(st)
