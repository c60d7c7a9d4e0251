"""The engine: state, phases, actions, battle, timing windows and the decision interface."""
