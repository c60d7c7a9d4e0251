"""The effect language: grammar, syntax tree, primitive registry and compiler."""
