"""protograf's deck for bench_cli.py: 24 cards (the classic game's treasures) of 63 x 88 mm
on A4, each front a frame, a picture and a name, each back a pattern, the backs printed
behind their fronts (duplex). Run it with protograf's own Python (protograf reads the command
line itself, so the file is named by DECK_PDF): DECK_PDF=out.pdf python protograf_deck.py
"""

import os

from protograf import Card, CardBack, Create, Deck, Save, circle, rectangle, text

CARDS = 24
out = os.environ.get("DECK_PDF", "deck.pdf")
Create(filename=out, paper="A4", units="mm", margin=8)
Deck(cards=CARDS, width=63, height=88, rounding=3, fill="ivory", stroke="black")
for i in range(1, CARDS + 1):
    Card(
        i,
        rectangle(x=4, y=4, width=55, height=80, stroke="sienna", stroke_width=1, fill="linen"),
        circle(cx=31.5, cy=38, radius=17, fill="gold", stroke="sienna"),
        text(text=f"Treasure {i}", x=31.5, y=72, font_size=12, align="centre", stroke="black"),
    )
CardBack(
    "all",
    rectangle(x=3, y=3, width=57, height=82, fill="navy", stroke="gold", stroke_width=2),
    circle(cx=31.5, cy=44, radius=20, fill="darkblue", stroke="gold"),
    text(text="Labyrinth", x=31.5, y=46, font_size=14, align="centre", stroke="gold"),
)
Save()
