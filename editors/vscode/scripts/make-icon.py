"""Draws images/icon.png, the extension's 128x128 icon: one box of a sudoku, a conflict in red.

Usage: python3 scripts/make-icon.py  (needs Pillow: `pip install pillow`; DejaVu Sans Bold)
Drawn 4x larger and scaled down, so edges and digits are smooth.
"""

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

S = 4  # supersampling
SIZE = 128 * S
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
BACKGROUND = (31, 45, 74)  # the gallery banner's colour (package.json)
CELL = (244, 246, 250)
GIVEN = (31, 45, 74)
CONFLICT_CELL = (253, 226, 226)
CONFLICT = (214, 48, 49)
MARKS = (90, 110, 150)

# A box of a puzzle: givens, two 5s in conflict, and an empty cell with its pencil marks.
BOX = [["5", "3", ""], ["6", "", "marks"], ["", "9", "5"]]


def main() -> None:
    image = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, SIZE - 1, SIZE - 1), radius=22 * S, fill=BACKGROUND)
    margin, gap = 14 * S, 4 * S
    cell = (SIZE - 2 * margin - 2 * gap) // 3
    digit = ImageFont.truetype(FONT, 22 * S)
    small = ImageFont.truetype(FONT, 9 * S)
    for row in range(3):
        for col in range(3):
            x = margin + col * (cell + gap)
            y = margin + row * (cell + gap)
            text = BOX[row][col]
            conflict = text == "5"
            draw.rounded_rectangle(
                (x, y, x + cell, y + cell),
                radius=5 * S,
                fill=CONFLICT_CELL if conflict else CELL,
            )
            centre = (x + cell / 2, y + cell / 2)
            if text == "marks":
                for i, mark in enumerate(["1", "4", "8"]):
                    at = (x + cell * (i + 1) / 4, y + cell / 2)
                    draw.text(at, mark, font=small, fill=MARKS, anchor="mm")
            elif text:
                colour = CONFLICT if conflict else GIVEN
                draw.text((centre[0], centre[1] - 2 * S), text, font=digit, fill=colour, anchor="mm")
    # The squiggle under the conflicting 5s.
    for row, col in [(0, 0), (2, 2)]:
        x = margin + col * (cell + gap) + cell // 2 - 9 * S
        y = margin + row * (cell + gap) + cell - 6 * S
        points = [(x + i * 3 * S, y + (2 * S if i % 2 else 0)) for i in range(7)]
        draw.line(points, fill=CONFLICT, width=2 * S, joint="curve")
    out = Path(__file__).resolve().parent.parent / "images" / "icon.png"
    image.resize((128, 128), Image.LANCZOS).save(out, optimize=True)
    print(out)


if __name__ == "__main__":
    main()
