"""The effect language's primitives, declared: every function and verb effect text may call, with
its sort (query, verb or choice), parameters (type, and default when optional), result and one line
of what it does. The compiler checks calls against these, the documentation's table lists them
(effects/docs.py), and the engine implements each with `@implements(name)`
(engine/primitives/, grouped by the same topics), which fails at import when an implementation's
parameters disagree with its declaration here. The declaration's line is the one description: it
becomes the implementation's docstring, which the implementation does not repeat. A new primitive is declared here first.
"""
from __future__ import annotations

from .registry import Registry, declarations

REGISTRY = Registry()
query, verb, choice = declarations(REGISTRY)
implements = REGISTRY.implements
counts = REGISTRY.counts

# ---- numbers and lists (engine/primitives/numbers_and_lists.py)
query("max", "The largest of the numbers given (or of one list).", returns="num", variadic=True, values="any")
query("min", "The smallest of the numbers given (or of one list).", returns="num", variadic=True, values="any")
query("ceil", "Round up to a whole number.", returns="int", x="num")
query("floor", "Round down to a whole number.", returns="int", x="num")
query("count", "How many items a list has.", returns="int", items="list")
query("first", "The first item of a list, or none.", items="list")
query("distinct", "The list without repeats (first occurrence kept).", returns="list", items="list")
query("pluck", "The value of one field of each record in a list, in order, repeats kept (e.g. 'loc', 'owner').",
      returns="list", items="list", field="field")
query("without", "The items of the first list that are not in the second list, in order.",
      returns="list", items="list", remove="list")
query("glyph", "The glyph printed on an area (none for an area without one, or a location off the map).",
      returns="str", area="area")
query("ruleset_halves",
      "`amount` halved and rounded up when the ruleset lists `ability` under halved-dice-abilities, "
      "else unchanged.",
      returns="int", ability="str", amount="int")

# ---- players (engine/primitives/players.py)
query("power", "A player's Power.", returns="int", player="player")
query("doom", "A player's Doom (revealed elder signs included).", returns="int", player="player")
query("elder_sign_count", "How many face-down elder signs a player holds.", returns="int", player="player")
query("spellbook_count", "How many spellbooks a player has on the card.", returns="int", player="player")
query("has_spellbook", "Whether a player holds a spellbook.",
      returns="bool", player="player", spellbook="spellbook")
query("first_player", "The current first player.", returns="player")
query("round", "The round number (the first round is 1).", returns="int")
query("player_count", "How many players are in the game.", returns="int")
query("enemy_of", "The one opponent of a player in a two-player game (or in the current battle).",
      returns="player", player="player")
query("ritual_cost", "What a Ritual of Annihilation would cost the player now.", returns="int", player="player")
query("ritual_track_cost", "The cost the Ritual track's marker shows now, before any player's own discount.",
      returns="int")
query("requirement_met", "Whether a player has earned the spellbook of one of its requirements.",
      returns="bool", player="player", requirement="str")
query("surcharge", "Where the ruleset's turn-surcharge marker stands.", returns="int")
verb("gain_power", "The player gains (or, if negative, loses) Power; Power never drops below 0.",
     player="player", amount="int")
verb("lose_power", "The player loses Power (never below 0).", player="player", amount="int")
verb("bank_power", "Set the player's Power aside to be added at the next Gather Power (it drops to 0 now).",
     player="player")
verb("gain_doom", "The player gains Doom.", player="player", amount="int")
verb("elder_sign", "The player draws elder signs face down (1 Doom each instead when the bag is empty).",
     player="player", count=("int", 1))

# ---- units (engine/primitives/units.py)
query("units",
      "Units filtered by owner (a player or a list), kind(s), class(es), area; where: map | pool | "
      "battle | held | any.",
      returns="units", owner=("any", None), kind=("kinds", None), **{"class": ("class", None)},
      area=("area", None), where=("str", "map"))
query("pool", "A player's units in the pool (not in play).",
      returns="units", owner="player", kind=("kinds", None), **{"class": ("class", None)})
query("battle_units", "A side's units taking part in the current battle (not exempted).",
      returns="units", owner="player", kind=("kinds", None), **{"class": ("class", None)})
query("held", "Units a player holds off the map (on its card), optionally under one tag.",
      returns="units", owner="player", tag=("str", None))
query("in_play", "Whether the player has a unit of the kind(s) on the map.",
      returns="bool", owner="player", kind="kinds")
query("awakened_ever", "Whether the player has awakened that Great Old One at least once this game.",
      returns="bool", owner="player", kind="kind")
query("cost", "What the unit's kind costs its owner now.", returns="int", unit="unit")
query("doom_value", "The average of every cost the unit can have, rounded up (for Doom awarded at average cost).",
      returns="int", unit="unit")
query("combat", "The unit's combat now.", returns="int", unit="unit")
query("cheapest", "The unit of lowest cost in a list (the first of equals), or none.", units="units")
query("kinds_of", "The distinct kinds in a list of units.", returns="list", units="units")
verb("place", "Put a unit (from the pool or a holding) into an area. Not a Summon or a Move.",
     unit="unit", area="area")
verb("move_to", "Relocate a unit on the map to an area (not the Move action; no Move abilities apply).",
     unit="unit", area="area")
verb("move_along", "Move units into an area for free during a Move action; they count as having moved.",
     units="units", area="area")
verb("kill", "Kill a unit: it returns to its owner's pool.", unit="unit")
verb("eliminate", "Eliminate a unit: it returns to its owner's pool.", unit="unit")
verb("replace",
     "Swap a unit for one of its owner's kind from the pool, in the same place (no Doom: a "
     "replacement).",
     unit="unit", kind="kind")
verb("capture", "Capture a unit onto your card (returned for 1 Power at Gather Power).", unit="unit")
verb("hold", "Lift a unit off the map onto a card (yours, or `player`'s), under a tag.",
     unit="unit", tag="str", player=("player", None))
verb("swap", "Two units exchange places.", a="unit", b="unit")

# ---- areas and gates (engine/primitives/areas_and_gates.py)
query("areas",
      "Map areas filtered by units, terrain (ocean | land), gates, start glyphs, map glyph, printed "
      "symbols, tokens.",
      returns="areas", with_units_of=("player", None), terrain=("str", None), gate=("bool", None),
      controlled_by=("player", None), without_units_of=("player", None), start_of=("player", None),
      symbol=("str", None), token=("token", None), without_token=("token", None), glyph=("str", None))
query("adjacent", "The areas next to an area.", returns="areas", area="area")
query("is_ocean", "Whether an area is ocean (or sea).", returns="bool", area="area")
query("has_gate", "Whether there is a gate in the area.", returns="bool", area="area")
query("gate_controller", "Who controls the gate in the area (none when abandoned or absent).",
      returns="player", area="area")
query("gates", "Gate locations (held gates and units that count as Gates included), by controller and terrain.",
      returns="list", controlled_by=("player", None), terrain=("str", None))
query("home", "The area where the player started the game.", returns="area", player="player")
query("tokens", "Tokens on the map, by type, area and owner.",
      returns="list", token=("token", None), area=("area", None), owner=("player", None))
verb("hold_gate", "Lift a gate and the unit controlling it off the map onto your card, under a tag.",
     area="area", tag="str")
verb("return_gate", "Put a held gate (and its controlling unit) back into an area that has no gate.",
     tag="str", area="area")
verb("remove_gate", "Take the gate in an area off the map (its controller stays in the area).", area="area")
verb("place_token",
     "Put your token in an area (with move: true, your token of that type already out moves there).",
     token="token", area="area", move=("bool", True))
verb("remove_token", "Take one token of a type off an area (yours, or `owner`'s); nothing when there is none.",
     token="token", area="area", owner=("player", None))
verb("lock_gate",
     "Free the gate in the area for good: its controller steps off, and no unit may control it again.",
     area="area")

# ---- battle (engine/primitives/battle.py)
query("in_battle", "Whether the player is one of the two sides of the current battle.",
      returns="bool", player="player")
query("assigned", "A side's units that have been assigned a result (kill, pain, eliminate) in this battle.",
      returns="units", owner="player", result="result")
query("avoided_deaths", "Units that had a kill assigned in this battle and are still in play.", returns="units")
query("rolled", "In a battle: how many dice a side rolled, or its kills / pains / misses.",
      returns="int", player="player", what=("str", "dice"))
query("flag", "Whether a battle flag (set with set_flag) is up.",
      returns="bool", name="str", player=("player", None))
query("lent", "Whether an ability is currently lent to a player.", returns="bool", ability="ability", to="player")
verb("exempt", "Take a unit out of the current battle (it stays in the area; the effect lasts the battle).",
     unit="unit")
verb("add_results", "Add battle results to be assigned to a side's units (eliminate may be limited to classes).",
     against="player", result="result", count=("int", 1), **{"class": ("class", None)})
verb("reroll_misses",
     "In a battle, roll again a side's dice that missed (1 to 3): new kills and pains go against the "
     "other side.",
     player="player")
verb("convert_results", "Results of one type not yet assigned against a side become another type.",
     against="player", src="result", dst="result")
verb("cancel_result", "Remove the last result assigned to a unit (it still counts against the unit's capacity).",
     unit="unit")
verb("set_flag", "Raise a flag that lasts until the end of the current battle.",
     name="str", player=("player", None))
verb("add_battle_count",
     "Add to a number kept until the end of the current battle, under a name (and a unit and/or "
     "player).",
     name="str", amount="int", unit=("unit", None), player=("player", None))
query("battle_count",
      "A number kept with add_battle_count in the current battle (0 when never added or outside a "
      "battle).",
      returns="int", name="str", unit=("unit", None), player=("player", None))
query("result_count",
      "How many battle results (of one type: kill, pain, eliminate) the unit holds in the current "
      "battle.",
      returns="int", unit="unit", result=("result", None))
query("total_power", "The Power of the listed players added together.", returns="int", players="players")

# ---- tracks and secrets (engine/primitives/tracks_and_secrets.py)
verb("set_marker", "Put a named game-long marker on a space of a track (a whole number, at least 0).",
     name="str", value="int")
query("marker", "Where a named marker stands (0 when it was never set).", returns="int", name="str")
choice("secret_picks",
       "Each player picks one option face down (no one sees another's pick); records {player, value} "
       "in order.",
       returns="list", players="players", options="list", prompt=("str", "choose"))
verb("lose_doom", "The player loses Doom (never below 0).", player="player", amount="int")
query("sum", "The numbers of a list added together (0 for an empty list).", returns="num", items="list")
query("independents", "Independent Great Old Ones on the map (of one player, or of anyone).",
      returns="units", owner=("player", None))
query("loyalty_spellbook_count", "How many spellbooks a player holds on the loyalty cards of its Independents.",
      returns="int", player="player")

# ---- turns (engine/primitives/turns.py)
verb("extra_action", "Immediately after, the player may take a second, different action (none of `excluding`); "
     "only the turn's first action grants one: a second action never grants a third.",
     excluding=("abilities", ()))
verb("action_in", "The player may take one action now, limited to the area (the same actions, costs and "
     "after-action window as on its turn), or decline.",
     player="player", area="area")
verb("end_actions", "The player takes no more actions this Action Phase, as if it had 0 Power (its turns pass).",
     player="player")
verb("lend_ability", "Lend one of `owner`'s abilities to `to` until the end of the next Doom Phase.",
     ability="ability", owner="player", to="player", until=("str", "end-of-doom-phase"))
verb("lend_unique", "Lend `owner`'s unique faction abilities to `to` until the end of the next Doom Phase; with "
     "`stand_in`, what they say of one of `owner`'s Great Old Ones applies to that kind as well.",
     owner="player", to="player", until=("str", "end-of-doom-phase"), stand_in=("kind", None))
verb("earn_requirement",
     "The player meets one of its own spellbook requirements now and takes a spellbook (in a battle, "
     "after it).",
     player="player", requirement="str")

# ---- choices (engine/primitives/choices.py)
choice("choose_unit", "The player picks one of the units (none if the list is empty).",
       returns="unit", player="player", units="units", prompt=("str", "choose a unit"))
choice("choose_units",
       "The player picks at least `least` (as many as there are) and up to `most` of the units, one "
       "at a time.",
       returns="units", player="player", units="units", most=("int", None),
       least=("int", None), prompt=("str", "choose units"))
choice("choose_area", "The player picks one of the areas (none if the list is empty).",
       returns="area", player="player", areas="areas", prompt=("str", "choose an area"))
choice("choose_player", "The player picks one of the players (none if the list is empty).",
       returns="player", player="player", players="players", prompt=("str", "choose a player"))
choice("roll_die", "Roll one six-sided die (from the game's seeded generator).", returns="int")
choice("roll_dice", "Roll `count` six-sided dice at once (from the game's seeded generator): the list of results.",
       returns="list", count="int")

# ---- shared costs (engine/primitives/shared_costs.py)
choice("share_power_loss",
       "The players, in the order given, each say how much of `amount` Power they give up, or refuse;"
       " the agreed shares as records {player, value} (empty: no agreement).",
       returns="list", players="players", amount="int",
       prompt=("str", "how much Power do you give up?"))

# ---- neutral content (engine/primitives/neutral_content.py)
verb("pay_doom", "The player pays Doom (an error when it has less than that).", player="player", amount="int")
verb("take_card", "The player takes the loyalty card of a neutral unit kind: its units join that player's pool.",
     player="player", kind="kind")
query("card_holder", "Who holds the loyalty card of a neutral unit kind (none while it is in the supply).",
      returns="player", kind="kind")
query("spellbooks", "The spellbooks on a player's faction card, in the order they were taken.",
      returns="list", player="player")
query("available_spellbooks",
      "Spellbooks the player could take now (own faction's while a slot is left, neutral ones in the "
      "supply), as if `without` were off its card.",
      returns="list", player="player", without=("spellbook", None))
choice("choose_spellbook", "The player picks one of the spellbooks (none if the list is empty).",
       returns="spellbook", player="player", spellbooks="list", prompt=("str", "choose a spellbook"))
verb("remove_spellbook",
     "Take a spellbook off the player's card (a neutral one returns to the general supply; used once-"
     "limits stay used).",
     player="player", spellbook="spellbook")
verb("take_spellbook",
     "Put an available spellbook on the player's card (an error when it is not available to that "
     "player).",
     player="player", spellbook="spellbook")
query("elder_sign_value",
      "The total value of a player's face-down elder signs (only those at the places `which`, as "
      "`choose_elder_signs` gives them, when given).",
      returns="int", player="player", which=("list", None))
verb("reveal_elder_signs",
     "The player trades its face-down elder signs (all, or those at the places `which`) for their "
     "Doom now.",
     player="player", which=("list", None))
choice("choose_elder_signs",
       "The player picks one or more of its face-down elder signs by their places (`elder-sign-1` "
       "...; values stay hidden), one at a time; the places picked.",
       returns="list", player="player", prompt=("str", "choose elder signs"))
