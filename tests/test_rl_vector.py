"""The batched RL environment (interpreter/rl/vector.py) and the example training run (reinforce.py)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the RL environment needs the optional extra necronomicon[rl]")
pytest.importorskip("gymnasium", reason="the RL environment needs the optional extra necronomicon[rl]")

from necronomicon.interpreter.rl import NecroEnv, VectorEnv  # noqa: E402
from necronomicon.interpreter.rl.reinforce import main as reinforce_main  # noqa: E402
from necronomicon.interpreter.rl.reinforce import train  # noqa: E402


def _run(v: VectorEnv, steps: int) -> tuple[list[dict], list[np.ndarray], np.ndarray]:
    batch = v.reset()
    infos, rewards, firsts = [], [], [batch["observation"].copy()]
    for _ in range(steps):
        batch, r, done, info = v.step(v.sample_actions(batch))
        for i in np.flatnonzero(done):
            infos.append(info[i])
            rewards.append(r[i])
        firsts.append(batch["observation"].copy())
    return infos, rewards, np.stack(firsts)


def test_batches_have_one_row_per_game_and_the_chooser_seat() -> None:
    v = VectorEnv(3, seed=5, ruleset="duel")
    b = v.reset()
    assert b["observation"].shape[0] == b["action_mask"].shape[0] == b["options"].shape[0] == 3
    assert b["options"].shape[1] == b["action_mask"].shape[1] == v.max_actions
    for i, e in enumerate(v.envs):
        assert v.possible_agents[b["seat"][i]] == e.agent_selection
        assert int(b["action_mask"][i].sum()) == min(len(e.game.legal_actions()), v.max_actions)
    assert [e.game.s.seed for e in v.envs] == [5, 6, 7]


def test_finished_games_report_their_rewards_and_are_replaced_by_the_next_seed() -> None:
    v = VectorEnv(2, seed=1, ruleset="duel")
    infos, rewards, _ = _run(v, 600)
    assert len(infos) >= 3
    seeds = [i["seed"] for i in infos]
    assert len(set(seeds)) == len(seeds) and all(1 <= s < 3 + len(seeds) for s in seeds)
    for info, r in zip(infos, rewards):   # the rewards are the environment's rule for that ending
        assert not info["truncated"]
        winners = info["winners"]
        expect = [0.0 if not winners else (1.0 if len(winners) == 1 else 0.0) if a in winners else -1.0
                  for a in v.possible_agents]
        assert list(r) == expect
    assert max(e.game.s.seed for e in v.envs) == 2 + len(infos)   # slots took the next unused seeds


def test_the_same_seed_and_actions_give_the_same_run() -> None:
    a = _run(VectorEnv(2, seed=9, ruleset="duel"), 150)
    b = _run(VectorEnv(2, seed=9, ruleset="duel"), 150)
    assert a[0] == b[0] and np.array_equal(a[2], b[2])


def test_an_illegal_action_changes_no_game() -> None:
    v = VectorEnv(2, seed=3, ruleset="duel")
    b = v.reset()
    before = [e.game.to_json() for e in v.envs]
    bad = v.sample_actions(b)
    bad[1] = v.max_actions + 5
    with pytest.raises(ValueError, match="game 1"):
        v.step(bad)
    assert [e.game.to_json() for e in v.envs] == before
    with pytest.raises(ValueError, match="one action per game"):
        v.step([0])


def test_the_example_training_run_learns_seeded_weights(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p.npz"
    assert reinforce_main(["--games", "4", "--envs", "2", "--eval-games", "2", "--save", str(out)]) == 0
    text = capsys.readouterr().out
    assert "before training: won" in text and "after 4 games: won" in text
    w = np.load(out)
    assert all(np.isfinite(w[k]).all() for k in w.files)
    assert np.abs(w["table_verb"]).sum() > 0 and np.abs(w["by_verb"]).sum() > 0   # the games moved the weights
    again, _ = train("duel", 4, 2, 1, 0.01)
    assert np.array_equal(again.by_verb, w["by_verb"])                           # seeded: the same weights


def test_a_vector_needs_a_sensible_size() -> None:
    with pytest.raises(ValueError, match="1 to 4096"):
        VectorEnv(0)
    assert isinstance(VectorEnv(1).envs[0], NecroEnv)
