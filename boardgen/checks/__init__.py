"""How each game's layouts are judged: the checks, one module per game, between the rules
and the drawing (data -> model -> rules -> checks -> render).

- `boardgen.checks.verdict`: the verdict types (`Check`, `Extra`, `Lineup`, `Report`), a leaf;
- `boardgen.checks.common`: one player count's self-play as a check (every game);
- `boardgen.checks.race`: the one "every special field reached" check of the dice races;
- one module per game: `grand`, `minos`, `walls`, `sliding`, `master`;
- `boardgen.checks.accessibility`: colours, text size and contrast of a kit with its theme.

An engine (`boardgen.engines`) calls its game's module from its check members; the harness
that runs them all is `boardgen.checks.harness`.
"""
