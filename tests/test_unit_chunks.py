"""The units' bytes kept unit by unit and chunk by chunk (engine/unit_chunks.py): the position
key's bytes are exactly marshal's format 2 of the units, a packed State comes back equal, and a
move makes only its unit's bytes and its chunk's again."""
from __future__ import annotations

import hashlib
import marshal

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine.agents import RandomAgent
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.state import State, key_bytes
from necronomicon.interpreter.engine.unit_chunks import CHUNK, UnitChunks


def _units(n: int) -> list[dict]:
    return [{"id": i + 1, "owner": "a" if i % 3 else "b", "kind": "k", "loc": "pool"} for i in range(n)]


def test_the_key_bytes_are_marshal_format_2_of_the_units_for_any_length() -> None:
    for n in (0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 5):
        units = _units(n)
        chunks = UnitChunks(n)
        assert chunks.key_bytes(units) == marshal.dumps(units, 2)
        assert marshal.loads(chunks.key_bytes(units)) == units


def test_a_move_makes_only_its_unit_and_its_chunk_again() -> None:
    units = _units(3 * CHUNK)
    chunks = UnitChunks(len(units))
    chunks.key_bytes(units)
    first_items, first_chunks = list(chunks.items), dict(chunks.keyed)
    units[CHUNK + 2]["loc"] = "x"
    chunks.drop(CHUNK + 2)
    assert chunks.key_bytes(units) == marshal.dumps(units, 2)
    assert [a is b for a, b in zip(first_items, chunks.items)] == [i != CHUNK + 2 for i in range(3 * CHUNK)]
    assert [first_chunks[c] is chunks.keyed[c] for c in range(3)] == [True, False, True]


def test_a_played_state_packs_and_keys_as_its_units_are() -> None:
    c = load_content().require_ok()
    g = Game(c, "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], 4)
    agents = {p: RandomAgent(i) for i, p in enumerate(g.s.players)}
    for _ in range(120):
        d = g.current()
        if d is None:
            break
        g.apply(agents[d.player].choose(d.player, d.options, d))
        s = g.s
        assert s.units_key_bytes() == key_bytes(s.units)       # kept chunks follow every move
        assert s.units_hash().digest() == hashlib.sha1(key_bytes(s.units)).digest()
        assert State.unpack(s.pack()).to_text() == s.to_text()
    s = g.s
    s.units[0]["owner"], before = "crawling-chaos", s.units[0]["owner"]
    s.written()                                                # a write that is not a move: all chunks again
    assert s.units_key_bytes() == key_bytes(s.units)
    s.units[0]["owner"] = before
    s.written()
    assert State.unpack(s.pack()).to_text() == s.to_text()


def test_the_kept_sha1_is_the_sha1_of_the_key_bytes_after_any_drops() -> None:
    for n in (0, 1, CHUNK, CHUNK + 1, 3 * CHUNK + 5):
        units = _units(n)
        chunks = UnitChunks(n)
        assert chunks.sha1(units).digest() == hashlib.sha1(marshal.dumps(units, 2)).digest()
        for i in ((n - 1, 0, CHUNK + 1) if n else ()):
            if i >= n:
                continue
            units[i]["loc"] = f"moved-{i}"
            chunks.drop(i)
            assert len(chunks.hashed) <= i // CHUNK       # the hashes from the moved unit's chunk on were dropped
            h = chunks.sha1(units)
            assert h.digest() == hashlib.sha1(marshal.dumps(units, 2)).digest()
            h.update(b"more")                              # the caller's copy: the kept one is unchanged
            assert chunks.sha1(units).digest() == hashlib.sha1(marshal.dumps(units, 2)).digest()


def test_a_write_of_no_unit_keeps_the_units_bytes_and_any_other_write_drops_them() -> None:
    c = load_content().require_ok()
    g = Game(c, "duel", ["sleeper", "wind-rider"], 5)
    s = g.s
    kept = s._unit_chunks()
    assert s.units_key_bytes() == key_bytes(s.units)
    s.spellbooks[s.players[0]].append("a-book")   # as take_spellbook does
    s.written(units=False)
    assert s._unit_chunks() is kept and s.units_key_bytes() == key_bytes(s.units)
    s.units[0]["owner"], before = s.players[1], s.units[0]["owner"]
    s.written()                                    # a unit written in place: every kept byte made again
    assert s._unit_chunks() is not kept and s.units_key_bytes() == key_bytes(s.units)
    assert s.units_hash().digest() == hashlib.sha1(key_bytes(s.units)).digest()
    s.units[0]["owner"] = before
    s.written()
