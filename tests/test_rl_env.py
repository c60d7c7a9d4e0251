"""The PettingZoo environment: PettingZoo's own API test, masked random episodes, seeding, rewards."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the RL environment needs the optional extra necronomicon[rl]")
pytest.importorskip("gymnasium", reason="the RL environment needs the optional extra necronomicon[rl]")

from pettingzoo.test import api_test  # noqa: E402

from necronomicon.interpreter.content.build import Content  # noqa: E402
from necronomicon.interpreter.rl import NecroEnv, env  # noqa: E402
from necronomicon.interpreter.rl.observation import SEAT_FEATURES, observation_size  # noqa: E402

# What api_test says about every env with a dict observation or non-numbered agent names; the
# agents here are faction ids on purpose (they are what a Decision names).
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "probably should be gymnasium.spaces.box",
                     "We recommend agents to be named")


def play_out(e: NecroEnv, seed: int, rng_seed: int) -> tuple[int, dict[str, float], set[str]]:
    """A random masked episode; (decisions, final cumulative rewards, agents seen acting twice in a row)."""
    rng = np.random.default_rng(rng_seed)
    e.reset(seed=seed)
    final: dict[str, float] = {}
    repeats: set[str] = set()
    last = None
    n = 0
    for agent in e.agent_iter(200_000):
        obs, reward, done, cut, _ = e.last()
        if done or cut:
            final[agent] = reward
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) == min(len(e.game.legal_actions()), e.max_actions) > 0
        if agent == last:
            repeats.add(agent)
        last = agent
        e.step(int(rng.choice(legal)))
        n += 1
    return n, final, repeats


@pytest.mark.parametrize("ruleset", ["duel", "multiplayer"])
def test_pettingzoo_api_test_passes(ruleset: str, builtin: Content) -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        api_test(env(ruleset=ruleset, content=builtin), num_cycles=1000)
    unexpected = {str(w.message) for w in seen if not str(w.message).startswith(EXPECTED_WARNINGS)
                  and not any(x in str(w.message) for x in EXPECTED_WARNINGS)}
    assert not unexpected


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_masked_episodes_reach_the_end_with_the_documented_rewards(seed: int, builtin: Content) -> None:
    e = NecroEnv("duel", content=builtin)
    n, final, repeats = play_out(e, seed, seed + 100)
    assert e.game.is_over() and not e.agents and n == e.decisions
    assert set(final) == set(e.possible_agents)
    winners = e.game.winner()
    if not winners:
        assert set(final.values()) == {0.0}
    elif len(winners) == 1:
        assert final == {a: 1.0 if a in winners else -1.0 for a in e.possible_agents}
    else:
        assert final == {a: 0.0 if a in winners else -1.0 for a in e.possible_agents}
    assert repeats  # decisions do not alternate: some seat answered twice in a row


def test_a_four_player_episode_finishes(builtin: Content) -> None:
    e = NecroEnv("multiplayer", content=builtin)
    n, final, _ = play_out(e, 7, 7)
    assert e.game.is_over() and len(final) == 4 and n > 100


def test_seeded_resets_reproduce_the_game(builtin: Content) -> None:
    runs = []
    for _ in range(2):
        e = NecroEnv("duel", content=builtin)
        play_out(e, 11, 3)
        runs.append((e.decisions, e.game.digest(), e.game.result_line()))
    assert runs[0] == runs[1]
    e = NecroEnv("duel", content=builtin)
    play_out(e, 12, 3)
    assert (e.decisions, e.game.digest()) != runs[0][:2]


def test_observation_is_ego_centric_fixed_size_and_masked(builtin: Content) -> None:
    e = NecroEnv("duel", content=builtin)
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(30):  # into the action phase
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    size = observation_size(2, len(e.game.layout.areas))
    me = e.agent_selection
    other = next(a for a in e.agents if a != me)
    mine, theirs = e.observe(me), e.observe(other)
    assert mine["observation"].shape == (size,) and mine["observation"].dtype == np.float32
    assert e.observation_space(me).contains(mine)
    assert mine["observation"][0] == e.game.s.power[me] and theirs["observation"][0] == e.game.s.power[other]
    assert mine["observation"][SEAT_FEATURES] == e.game.s.power[other]
    assert mine["action_mask"].sum() == len(e.game.legal_actions()) and theirs["action_mask"].sum() == 0
    assert e.infos[me]["options"] == list(e.game.legal_actions())


def test_an_index_outside_the_mask_is_refused_and_changes_nothing(builtin: Content) -> None:
    e = NecroEnv("duel", content=builtin)
    e.reset(seed=1)
    before = e.game.digest()
    with pytest.raises(ValueError, match="not legal"):
        e.step(len(e.game.legal_actions()))
    assert e.game.digest() == before and e.decisions == 0


def test_too_many_options_are_cut_to_the_action_space(builtin: Content) -> None:
    e = NecroEnv("duel", content=builtin, max_actions=8, max_decisions=400)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    cut = 0
    for agent in e.agent_iter(2000):
        obs, _, done, truncated, info = e.last()
        if done or truncated:
            e.step(None)
            continue
        assert obs["action_mask"].sum() == min(8, len(e.game.legal_actions()))
        cut += bool(info["options_cut"])
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert cut > 0 and not e.agents  # finished, or truncated at max_decisions
    assert e.game.is_over() or e.decisions == 400


# ---- structured options and observations from the view (issue 15) ---------------------------------------------
def test_the_option_encoding_is_stable_for_the_same_content(builtin: Content) -> None:
    from necronomicon.interpreter.content import load_content
    from necronomicon.interpreter.rl.vocabulary import Vocabulary
    again = load_content(expansions="all").require_ok()
    v1, v2 = Vocabulary.from_content(builtin), Vocabulary.from_content(again)
    assert v1 == v2 and v1.index("kinds", "acolyte") == v2.index("kinds", "acolyte") >= 2
    # the vocabulary is the content's, not a game's: a Duel and a 4-player table share every index
    duel, four = NecroEnv("duel", content=builtin), NecroEnv("multiplayer", content=builtin)
    assert duel.vocabulary == four.vocabulary
    assert v1.index("verbs", "summon") == 2 + v1.verbs.index("summon") and v1.index("verbs", None) == 0
    assert v1.index("places", "held") == 3 and v1.index("kinds", "no-such-kind") == 1
    assert "give-elder-sign" in v1.words and "clockwise" in v1.words   # content `choose` labels and engine words
    assert set(v1.verbs) >= {"move-unit", "summon", "ritual", "pick"}


def test_option_rows_say_what_each_option_is(builtin: Content) -> None:
    from necronomicon.interpreter.rl.vocabulary import OPTION_FIELDS
    e = NecroEnv("duel", content=builtin)
    e.reset(seed=4)
    v = e.vocabulary
    rng = np.random.default_rng(1)
    seen_move = False
    for _ in range(400):
        me = e.agent_selection
        obs = e.observe(me)
        d = e.game.current()
        rows = obs["options"]
        assert rows.shape == (e.max_actions, len(OPTION_FIELDS)) and e.observation_space(me).contains(obs)
        assert (rows[:len(d.options), 0] >= 2).all() and not rows[len(d.options):].any()
        col = {f: k for k, f in enumerate(OPTION_FIELDS)}
        for i, label in enumerate(d.options):
            if d.kind == "move" and label != "done":
                kind, rest = label.split(" ", 1)
                src, dst = rest.split("#")[0].split("->")
                assert rows[i, col["verb"]] == v.index("verbs", "move-unit")
                assert (rows[i, col["unit_kind"]], rows[i, col["src"]], rows[i, col["dst"]], rows[i, col["unit"]]) == \
                    (v.index("kinds", kind), v.index("places", src), v.index("places", dst), int(label.split("#")[1]))
                assert rows[i, col["cost"]] == d.context["costs"][label] + 1
                seen_move = True
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if e.game.is_over():
            break
    assert seen_move


def test_observations_of_games_differing_only_in_hidden_information_are_equal(builtin: Content) -> None:
    from necronomicon.interpreter.engine.position import build_state
    from necronomicon.interpreter.engine.game import Game
    factions = ["great-cthulhu", "crawling-chaos", "black-goat"]
    layout = builtin.model.rulesets["multiplayer"].get("map")["3"]

    def game(signs: dict[str, list[int]], seed: int) -> Game:
        pos = {"player": "great-cthulhu", "power": {f: 6 for f in factions},
               "units": {"great-cthulhu": {"south-pacific": ["acolyte", "deep-one"]},
                         "crawling-chaos": {"asia": ["acolyte"]}, "black-goat": {"africa": ["acolyte"]}},
               "gates": {"south-pacific": "great-cthulhu"}, "elder-signs": signs}
        state = build_state(builtin.model, "multiplayer", layout, factions, seed, pos, [])
        return Game(builtin, "multiplayer", factions, seed, layout, independents=[], _state=state.to_dict())

    envs = []
    for signs, seed in (({"great-cthulhu": [2], "crawling-chaos": [1, 1]}, 1), ({"great-cthulhu": [2], "crawling-chaos": [3, 2]}, 2)):
        e = NecroEnv("multiplayer", factions=factions, content=builtin)
        e.reset(seed=seed)
        e.game = game(signs, seed)
        envs.append(e)
    a, b = envs
    assert a.game.s.elder_signs != b.game.s.elder_signs and a.game.s.rng != b.game.s.rng
    for p in ("great-cthulhu", "black-goat"):
        oa, ob = a.observe(p), b.observe(p)
        assert all(np.array_equal(oa[k], ob[k]) for k in oa), p
    assert a.observe("great-cthulhu")["options"].any()
    # the owner of the differing values sees its own, and its observation is still only public counts
    assert np.array_equal(a.observe("crawling-chaos")["observation"], b.observe("crawling-chaos")["observation"])
