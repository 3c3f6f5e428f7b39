"""家族卡牌能力 / House card abilities: one module per house, each registering its abilities in
:data:`..house_cards.ABILITIES` (hook API and timings: :mod:`..house_cards`; decisions:
:mod:`.common`); :mod:`.first_edition` the 1st edition's texts that no 2nd-edition card has."""

from . import baratheon, common, first_edition, greyjoy, lannister, martell, stark, tyrell  # noqa: F401
