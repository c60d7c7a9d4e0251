# Cython declarations for the compiled core (hatch_build.py), beside the unchanged phases.py, which
# stays the reference: the phase rules' small reads asked at every turn (out of actions, a pass, the
# Doom goal, the spellbooks) as C functions whose context `g` is typed (rules_fields.pxd), so that
# `g.s` and `g.ruleset` are C field loads. Their results are left untyped, as the source returns them.
import cython

from necronomicon.interpreter.engine.rules_fields cimport RulesFields

@cython.locals(d=dict)
cpdef tuple _keyed_rest(object s)

cpdef object next_player(RulesFields g, object p)
cpdef object out_of_actions(RulesFields g, object p)
cpdef object can_pass(RulesFields g, object p)
cpdef object doom_goal(RulesFields g)
cpdef object reveal_reaches_goal(RulesFields g, object q)
# (asked after every action: perform._reveals, a C call)
cpdef bint reveal_could_end_game(RulesFields g)
cpdef object ritual_track_cost(RulesFields g)
cpdef object ritual_track(RulesFields g)
cpdef object has_all_spellbooks(RulesFields g, object p)
cpdef object needs_six_spellbooks(RulesFields g)
