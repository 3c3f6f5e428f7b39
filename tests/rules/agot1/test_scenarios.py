"""Every scenario of the 1st edition passes (tests/rules/agot1/scenarios/, format: docs/scenarios.md,
with ``"ruleset": "agot1"``), each names its rule in the 1st-edition rulebook and quotes it
word for word, and every worked example of that rulebook has a scenario."""

import json
import re
from pathlib import Path

import pytest

from game.rules.agot.scenario import run_scenario

DIR = Path(__file__).parent / "scenarios"
FILES = sorted(DIR.glob("*.json"))
RULEBOOK = Path("/work/shared/rules/000_abc0dd43a991066e.txt")

#: the rulebook's worked examples (its ★ headings and the examples inside its text) -> scenarios
EXAMPLES = {
    "★环境设置范例": ["example_setup_lannister"],
    "★补给等级改变的范例": ["example_supply_lannister_five_to_three"],
    "★徵兵范例": ["example_mustering_lannister", "example_mustering_supply_stops_riverrun"],
    "★竞标影响领域(Areas of Influence)的范例": ["example_clash_of_kings_fiefdoms_bidding"],
    "★范例:兰尼斯特家族在宫廷影响区的位阶为3": ["orders_special_count_from_kings_court", "orders_two_special_at_kings_court_third"],
    "★突击范例": ["example_raids"],
    "★行军范例": ["example_march_three_footmen"],
    "例如,假设葛雷乔伊家在Ironman’s Bay驻有一艘船": ["example_ship_transport_pyke"],
    "可能用一个行军命令就可以使Flint's Finger的部队移动到Widow's Watch": ["example_ship_transport_flints_finger_to_widows_watch"],
    "★船舰运输范例": ["example_ship_transport_highgarden_to_sunspear"],
    "★支援范例": ["example_combat_support"],
    "★范例:兰尼斯特家对提利尔家": ["example_casualties_tywin_against_margaery", "example_casualties_margaery_wins_no_loss"],
    "★范例:提利尔家刚在Kingswood面对拜拉席恩家时战败": ["example_retreat_routed_knight_destroyed"],
    "★范例:龙石岛驻有一个步兵": ["example_consolidate_power_dragonstone"],
    "★范例:提利尔家的部队想从Yronwood移入阳戟城": ["example_neutral_force_sunspear"],
}


def load(p: Path) -> dict:
    return json.loads(p.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path):
    sc = load(path)
    assert sc.get("ruleset") == "agot1"
    assert run_scenario(sc) == []


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_names_and_quotes_its_rule(path):
    """The ``rule`` names the rulebook section (Chinese heading / English term) and quotes the
    1st-edition text in Chinese; every quote is found word for word in the rulebook."""
    sc = load(path)
    assert sc["name"] == path.stem
    rule = sc["rule"]
    assert " / " in rule.split('"')[0], "name the section: 中文标题 / English term"
    quotes = re.findall(r'"([^"]+)"', rule)
    assert quotes and any(re.search("[\u4e00-\u9fff]", q) for q in quotes), "quote the Chinese rulebook"
    if RULEBOOK.exists():
        text = RULEBOOK.read_text(encoding="utf-8").replace("\n", "")
        for q in quotes:
            if re.search("[\u4e00-\u9fff]", q):
                for part in re.split(r" \.\.\. |\.\.\.", q):
                    assert part.strip() in text, f"not in the rulebook: {part!r}"


def test_every_worked_example_of_the_rulebook_has_a_scenario():
    names = {p.stem for p in FILES}
    for heading, scenarios in EXAMPLES.items():
        assert set(scenarios) <= names, heading
        for n in scenarios:
            assert load(DIR / f"{n}.json").get("example") is True, n
    if RULEBOOK.exists():
        text = RULEBOOK.read_text(encoding="utf-8").replace("\n", "")
        for heading in EXAMPLES:
            assert heading.replace(" ", "") in text.replace(" ", ""), heading
        # no worked example left out: every "★...范例" heading of the rulebook is listed
        starred = re.findall(r"★[^★◇:]{0,30}?范例", text)
        listed = [h for h in EXAMPLES if h.startswith("★")]
        assert len(starred) == len(listed)
        assert sorted(s for s in starred if s != "★范例") == sorted(h for h in listed if not h.startswith("★范例"))
