"""SVG drawing of every piece, one module per kind of game plus shared basics."""
