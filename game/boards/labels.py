"""Area names as label lines: the language key and rough text metrics used to wrap names."""

from __future__ import annotations

from .geometry import LANGS


def normalize_lang(lang: str) -> str:
    """``"en"`` or ``"zh"`` for a language code (``zh-hans``, ``en-us``...); ValueError else."""
    key = (lang or "en").lower().replace("_", "-")
    if key.startswith("zh"):
        return "zh"
    if key.startswith("en"):
        return "en"
    raise ValueError(f"unsupported language {lang!r}; use one of {LANGS}")



#: the names' size against the first drawing's 10-unit type: large enough that the whole board,
#: fitted to a desktop window's height (about 0.76 screen pixels per unit at 1400 x 900), shows
#: its names at 11 pixels or more
NAME_SCALE = 1.5


def text_width(line: str) -> float:
    """Rough rendered width of a label line in user units (CJK glyphs are wider)."""
    return sum(11 if ord(ch) > 0x2E80 else 5.5 for ch in line) * NAME_SCALE


def wrap_name(name: str, lang: str, room: float) -> list[str]:
    """Split a name into lines that fit ``room`` user units (rough glyph widths)."""
    if lang == "zh":
        return [name] if text_width(name) <= max(room, 44 * NAME_SCALE) or len(name) <= 4 else \
            [name[: (len(name) + 1) // 2], name[(len(name) + 1) // 2:]]
    if text_width(name) <= room or " " not in name:
        return [name]
    words = name.split(" ")
    best = None
    for i in range(1, len(words)):
        a, b = " ".join(words[:i]), " ".join(words[i:])
        cost = max(len(a), len(b))
        if best is None or cost < best[0]:
            best = (cost, [a, b])
    return best[1]
