"""家族卡牌能力 / House card abilities: one module per house, each registering its abilities in
:data:`..house_cards.ABILITIES` (hook API and timings: :mod:`..house_cards`; decisions:
:mod:`.common`)."""

from . import baratheon, common, greyjoy, lannister, martell, stark, tyrell  # noqa: F401
