"""House Martell's house card abilities (马泰尔家族卡牌).

The Red Viper (红毒蛇), Areo Hotah (阿利欧·何塔), Darkstar (暗星) and Obara Sand (奥芭娅·沙德) have
only printed strength and icons.
"""

from __future__ import annotations

from ..combat import current, opponent
from .common import Ability, ChoiceAbility, ability_event, register

TRACKS = ("iron_throne", "fiefdoms", "kings_court")


@register("defending_loss_attackers_bounce")
class ArianneMartell(Ability):
    """Arianne Martell (亚莲恩·马泰尔): if you are defending and lose, the attacker may not move its
    units into the embattled area: they stay in the area they marched from. Your units still
    retreat.

    Timing: 清理战场 / Clean-up (a lose effect read when the attackers would move in). The
    defender's order and power token there are still removed as for any attacker's win.
    """

    def attacker_advances(self, state, house):
        c = current(state)
        return not (house == c.defender and c.loser == house)


@register("sword_or_fort_by_role")
class NymeriaSand(Ability):
    """Nymeria Sand (娜梅莉亚·沙德): defending, this card gains a fortification icon; attacking, a
    sword icon.

    Timing: 伤亡 / Casualties (icon modifier).
    """

    def icons(self, state, house):
        return (1, 0) if house == current(state).attacker else (0, 1)


@register("opponent_to_bottom_of_track")
class DoranMartell(ChoiceAbility):
    """Doran Martell (道朗·马泰尔): immediately move your opponent to the bottom of one influence
    track of your choice.

    Timing: 立即 / Immediately (家族卡牌 ②, turn order). Decision ``choose`` (purpose
    ``doran-martell``): ``iron_throne``, ``fiefdoms`` or ``kings_court``. The houses below move up
    one place (调整势力条 / Adjusting influence tracks); a house leaving position 1 hands the
    dominance token to the new leader as it is (the Blade's used state stays with it), so a
    Fiefdoms move can change who holds the Blade and who wins a tie in this very combat.
    """

    def reveal(self, state, house):
        self.ask(state, house, "doran-martell", "reveal")

    def choices(self, state, house, step):
        opp = opponent(current(state), house)
        return list(TRACKS), {"opponent": opp, "positions": {t: state.tracks[t].index(opp) + 1 for t in TRACKS}}

    def chose(self, state, house, step, option):
        opp = opponent(current(state), house)
        state.tracks[option] = tuple(h for h in state.tracks[option] if h != opp) + (opp,)
        ability_event(state, house, "doran-martell", "track_bottom", victim=opp, track=option)
        state.emit("track_set", track=option, order=list(state.tracks[option]))
