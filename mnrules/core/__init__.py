"""The loop and the state: a game as a stack of frames advanced by the rules' steps
(engine), its plain-data state (state), the round's phases (flow), effects and their
order (effects), starting and loading a game (start), what one player may see (view) and
the checks run after every choice (invariants)."""
