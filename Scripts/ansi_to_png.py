#!/usr/bin/env python3
"""Renders a tmux `capture-pane -p -e -N` capture (ANSI colours) as a PNG, one grapheme cluster per cell."""
import os
import re
import sys
import unicodedata

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
FONT_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
# For wide characters (CJK), when one is installed (apt: fonts-noto-cjk).
WIDE_FONTS = ["/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"]
BACKGROUND = (30, 32, 36)
FOREGROUND = (220, 222, 226)
PALETTE = [
    (40, 42, 46), (224, 108, 117), (152, 195, 121), (229, 192, 123),
    (97, 175, 239), (198, 120, 221), (86, 182, 194), (220, 222, 226),
]
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def is_extender(character):
    """Whether a code point joins the cluster before it: a combining mark, a joiner, a
    variation selector or a skin tone."""
    code = ord(character)
    return unicodedata.category(character) in ("Mn", "Me", "Cf") or 0xFE00 <= code <= 0xFE0F or 0x1F3FB <= code <= 0x1F3FF


def is_regional(character):
    return 0x1F1E6 <= ord(character) <= 0x1F1FF


def clusters(text):
    """Splits text into grapheme clusters, as the terminal drew them: a letter with its
    combining marks, an emoji ZWJ sequence, a flag (two regional indicators)."""
    cluster = ""
    for character in text:
        joins = cluster and (is_extender(character) or cluster.endswith("\u200d")
                             or (len(cluster) == 1 and is_regional(cluster) and is_regional(character)))
        if joins:
            cluster += character
        else:
            if cluster:
                yield cluster
            cluster = character
    if cluster:
        yield cluster


def cells(line):
    """Yields (grapheme cluster, style) for each drawn cluster of a line."""
    state = {"fg": None, "bg": None, "bold": False, "dim": False, "reverse": False}
    position = 0
    for match in SGR.finditer(line + "\x1b[m"):
        for cluster in clusters(line[position:match.start()]):
            yield cluster, dict(state)
        position = match.end()
        codes = [int(code) if code else 0 for code in match.group(1).split(";")]
        index = 0
        while index < len(codes):
            code = codes[index]
            if code == 0:
                state.update(fg=None, bg=None, bold=False, dim=False, reverse=False)
            elif code == 1:
                state["bold"] = True
            elif code == 2:
                state["dim"] = True
            elif code == 22:
                state["bold"] = state["dim"] = False
            elif code == 7:
                state["reverse"] = True
            elif code == 27:
                state["reverse"] = False
            elif 30 <= code <= 37:
                state["fg"] = PALETTE[code - 30]
            elif code == 39:
                state["fg"] = None
            elif 40 <= code <= 47:
                state["bg"] = PALETTE[code - 40]
            elif code == 49:
                state["bg"] = None
            elif code in (38, 48) and index + 2 < len(codes) and codes[index + 1] == 5:
                colour = PALETTE[codes[index + 2] % 8]
                state["fg" if code == 38 else "bg"] = colour
                index += 2
            index += 1


def width(cluster):
    """Terminal cells a cluster takes: 2 for an East Asian wide or fullwidth first character
    and for a flag, 1 otherwise (as the explorer measures it)."""
    first = cluster[0]
    return 2 if unicodedata.east_asian_width(first) in ("W", "F") or is_regional(first) else 1


def render(capture, output, scale=2):
    lines = capture.rstrip("\n").split("\n")
    size = 14 * scale
    regular, bold = ImageFont.truetype(FONT, size), ImageFont.truetype(FONT_BOLD, size)
    cell_width = round(regular.getlength("M"))
    cell_height = round(size * 1.3)
    columns = max(sum(width(cluster) for cluster, _ in cells(line)) for line in lines)
    wide = next((ImageFont.truetype(path, size) for path in WIDE_FONTS if os.path.exists(path)), None)
    padding = 12 * scale
    image = Image.new("RGB", (columns * cell_width + 2 * padding, len(lines) * cell_height + 2 * padding), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        column = 0
        for cluster, style in cells(line):
            foreground = style["fg"] or FOREGROUND
            background = style["bg"] or BACKGROUND
            if style["reverse"]:
                foreground, background = background, foreground
            if style["dim"]:
                foreground = tuple((f + b) // 2 for f, b in zip(foreground, background))
            x, y = padding + column * cell_width, padding + row * cell_height
            if background != BACKGROUND:
                draw.rectangle([x, y, x + width(cluster) * cell_width - 1, y + cell_height - 1], fill=background)
            if cluster != " ":
                font = wide if wide and width(cluster) == 2 else (bold if style["bold"] else regular)
                draw.text((x, y + (cell_height - size) // 2), cluster, font=font, fill=foreground)
            column += width(cluster)
    image.save(output)


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as capture:
        render(capture.read(), sys.argv[2])
