"""How the site presents the two AGoT editions (:class:`game.rules.base.Presentation`): their
lobby texts, the words for seats (houses) and rounds, the phases of a round (2nd ed. rulebook,
游戏回合 / The Game Round: Westeros, Planning, Action), the time controls a lobby offers, and the
game screen's files and board. Pure data, in English and simplified Chinese."""

from __future__ import annotations

from ..base import Presentation

#: the phases :func:`game.rules.agot.views.progress` reports, named as the rulebook does
PHASE_NAMES = {
    "westeros": {"en": "Westeros", "zh-hans": "维斯特洛阶段"},
    "planning": {"en": "Planning", "zh-hans": "计划阶段"},
    "action": {"en": "Action", "zh-hans": "行动阶段"},
    "over": {"en": "Game over", "zh-hans": "游戏结束"},
}
#: a game of AGoT lasts hours: the live clocks are long, and correspondence suits it well
TIME_CONTROLS = ("live-60+20", "live-30+10", "deadline-12h", "deadline-24h", "deadline-48h", "none")

PRESENTATIONS = {
    "agot2": Presentation(
        short_names={"en": "A Game of Thrones (2nd edition)", "zh-hans": "权力的游戏（第二版）"},
        description={
            "en": "The 2011 edition for 3 to 6 players, with House Martell, ports, garrisons and the wildling cards.",
            "zh-hans": "2011年的版本，3至6名玩家，有马泰尔家族、港口、主城守备军和野人卡牌。",
        },
        option_text={
            "tides_of_battle": {
                "en": ("Tides of Battle", "Optional rule: each combatant also draws a Tides of Battle card."),
                "zh-hans": ("战局卡牌", "可选规则：每位参战者还要抽一张战局卡牌。"),
            },
        },
        seat_noun="house",
        round_noun="round",
        phase_names=PHASE_NAMES,
        time_controls=TIME_CONTROLS,
        renderer="js/rulesets/agot2.js",
        stylesheet="css/agot2.css",
        board="agot2",
    ),
    "agot1": Presentation(
        short_names={"en": "A Game of Thrones (1st edition)", "zh-hans": "权力的游戏（第一版）"},
        description={
            "en": (
                "The 2003 edition for 3 to 5 players (no Martell, no ports or garrisons), played from its "
                "rulebook. Some facts the rulebook does not print are reconstructed: the Westeros decks and "
                "their wildling icons, the wildling track, the starting supply, Renly's and Ser Davos's "
                "cards and a few borders of the board."
            ),
            "zh-hans": (
                "2003年的版本，3至5名玩家（没有马泰尔家族，没有港口和主城守备军），按其规则书进行。规则书没有印出的"
                "部分事实是重建的：维斯特洛卡牌堆及其野人图标、野人威胁条、起始补给、蓝礼和戴佛斯爵士的家族卡牌，"
                "以及地图上少数几处边界。"
            ),
        },
        caveat={"en": "some facts reconstructed", "zh-hans": "部分事实为重建"},
        seat_noun="house",
        round_noun="round",
        phase_names=PHASE_NAMES,
        time_controls=TIME_CONTROLS,
        renderer="js/rulesets/agot1.js",
        stylesheet="css/agot2.css",  # the 1st edition's screen is the 2nd's, on its own board
        board="agot1",
    ),
}
