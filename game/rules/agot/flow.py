"""The round's sequence as a queue of tasks: what happens next, and who must decide.

``state.tasks`` is a tuple of tasks, head first; a task is a tuple ``(kind, *args)``.

* An **automatic** task (registered with :func:`auto`) runs as soon as it reaches the head; it may
  push further tasks in front of the queue (:func:`push`).
* A **decision** task (registered with :func:`decision`) waits for one or more houses:
  its ``decisions(state, task)`` lists the :class:`Decision` values (empty = nothing to decide,
  the task is dropped) and its ``handle(state, task, actor, action)`` applies one accepted action
  (and pops the task when it is complete; simultaneous tasks stay until the last house is in).

:func:`run` advances the automatic tasks until a decision is needed or the game is over.
Victory (游戏胜利 / Victory: the seventh castle or stronghold) is checked after every step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..base import Decision, IllegalAction
from .state import State

AutoFn = Callable[[State, tuple], None]


@dataclass(frozen=True)
class DecisionSpec:
    decisions: Callable[[State, tuple], list[Decision]]
    handle: Callable[[State, tuple, str, Any], None]
    actions: tuple[str, ...]  # action ``type`` tags this task accepts
    #: a face-down task's ``withdraw(state, task, actor) -> bool``: take back ``actor``'s answer
    #: (False: it has none to take back); None for a task whose answers are final (:func:`withdraw`)
    withdraw: Callable[[State, tuple, str], bool] | None = None
    #: a face-down task's ``answered(state, task) -> [house]``: the houses that have answered it
    #: (chosen, or answered by the rules themselves, e.g. a bid of 0 with no power) (:func:`ready`)
    answered: Callable[[State, tuple], list[str]] | None = None


AUTO: dict[str, AutoFn] = {}
DECIDE: dict[str, DecisionSpec] = {}


def auto(kind: str) -> Callable[[AutoFn], AutoFn]:
    def reg(fn: AutoFn) -> AutoFn:
        AUTO[kind] = fn
        return fn

    return reg


def decision(kind: str, actions: tuple[str, ...]):
    def reg(cls_or_ns):
        DECIDE[kind] = DecisionSpec(
            cls_or_ns.decisions, cls_or_ns.handle, actions, getattr(cls_or_ns, "withdraw", None), getattr(cls_or_ns, "answered", None)
        )
        return cls_or_ns

    return reg


def push(state: State, *tasks: tuple) -> None:
    """Put ``tasks`` (in order) at the front of the queue."""
    state.tasks = tuple(tasks) + state.tasks


def pop(state: State) -> tuple:
    head = state.tasks[0]
    state.tasks = state.tasks[1:]
    return head


def current_decisions(state: State) -> list[Decision]:
    if state.result is not None or not state.tasks:
        return []
    head = state.tasks[0]
    spec = DECIDE.get(head[0])
    if spec is None:
        return []
    return spec.decisions(state, head)


def run(state: State) -> None:
    """Run automatic tasks (and drop decision tasks with nothing to decide) until a decision waits."""
    from .victory import check_victory

    guard = 0
    check_victory(state)
    while state.result is None and state.tasks:
        guard += 1
        if guard > 100000:  # pragma: no cover - a bug, never a rule
            raise RuntimeError("task loop does not terminate")
        head = state.tasks[0]
        fn = AUTO.get(head[0])
        if fn is not None:
            pop(state)
            fn(state, head)
            check_victory(state)
            continue
        spec = DECIDE.get(head[0])
        if spec is None:  # pragma: no cover - a bug
            raise RuntimeError(f"unknown task {head!r}")
        if spec.decisions(state, head):
            break
        pop(state)
    if state.result is not None:
        state.tasks = ()


def apply(state: State, actor: str, action: Any) -> State:
    """The state after ``actor`` takes ``action`` (the input state is not modified).

    Raises:
        IllegalAction("game.over"): the game has ended.
        IllegalAction("action.not_your_turn"): ``actor`` has no pending decision.
        IllegalAction("withdraw.*"): a withdrawal that cannot be made (:func:`withdraw`).
        IllegalAction("action.unexpected"): the action's type does not answer the decision.
        IllegalAction(...): any rule refusing the action (see docs/scenarios.md).
    """
    if state.result is not None:
        raise IllegalAction("game.over", "The game is over.")
    if getattr(action, "type", None) == "withdraw":
        return withdraw(state, actor)
    ds = [d for d in current_decisions(state) if d.actor == actor]
    if not ds:
        raise IllegalAction("action.not_your_turn", "Nothing is waiting for this house's decision now.", house=actor)
    head = state.tasks[0]
    spec = DECIDE[head[0]]
    atype = getattr(action, "type", None)
    if atype not in spec.actions:
        raise IllegalAction(
            "action.unexpected",
            f"This decision ({ds[0].kind}) expects an action of type {', '.join(spec.actions)}.",
            expected=list(spec.actions),
            got=atype,
        )
    new = state.clone()
    spec.handle(new, head, actor, action)
    new.version = state.version + 1
    run(new)
    return new


def _face_down(state: State, pending: list[Decision] | None = None) -> tuple[tuple | None, DecisionSpec | None, list[Decision]]:
    """``(head task, its spec, pending decisions)`` while a face-down decision is in progress (the
    head task has a ``withdraw`` hook and every pending decision is simultaneous); else
    ``(None, None, pending)``. ``pending``: :func:`current_decisions` of ``state``, when the
    caller has them."""
    if pending is None:
        pending = current_decisions(state)
    head = state.tasks[0] if state.tasks else None
    spec = DECIDE.get(head[0]) if head is not None else None
    if spec is None or spec.withdraw is None or not pending or not all(d.simultaneous for d in pending):
        return None, None, pending
    return head, spec, pending


def hidden_answers(state: State) -> bool:
    """Whether a face-down decision is in progress (orders, bids, house cards) and some house
    has answered it already: its answer is then hidden from the others until the last one is in."""
    head, spec, pending = _face_down(state)
    if spec is None:
        return False
    waiting = {d.actor for d in pending}
    return any(spec.withdraw(state.clone(), head, h) for h in state.houses if h not in waiting)


def ready(state: State) -> list[str]:
    """The houses that have answered the face-down decision in progress and wait for the others
    (sorted; public: at the table everyone sees who has placed their orders, closed their fist or
    laid a card face down). Empty when no face-down decision is in progress."""
    head, spec, _ = _face_down(state)
    if spec is None or spec.answered is None:
        return []
    return sorted(spec.answered(state, head))


def may_withdraw(state: State, actor: str | None, pending: list[Decision] | None = None) -> bool:
    """Whether :func:`withdraw` would accept ``actor``'s withdrawal now (the page then offers
    "Change"). ``pending``: :func:`current_decisions` of ``state``, when the caller has them."""
    if actor is None:
        return False
    head, spec, pending = _face_down(state, pending)
    if spec is None or any(d.actor == actor for d in pending):
        return False
    return spec.withdraw(state.clone(), head, actor)


def withdraw(state: State, actor: str) -> State:
    """Change of mind: ``actor`` takes back its face-down answer to the simultaneous decision in
    progress (its orders, its bid, its house card), which it then answers again.

    The rulebook makes these choices in secret and shows them together once everyone has chosen:
    部署指令 / Placing orders, "所有玩家同时部署各自的指令" and "版图上部署的所有指令同时展示";
    竞标 / Bidding, "每位玩家秘密选取其中任意数量的权力标记，握于拳中。当所有玩家做好选择后，同时
    打开手掌展示各自的出价"; 战斗 / Combat, "攻方和守方秘密地从手中选择一张家族卡牌面朝下打出。待双方
    选择完毕，同时展示两张卡牌". Until the last one is made, no choice has been shown, so a player
    may still change theirs (at the table: take a token back, open the fist) without anyone
    learning anything; once the last answer is in, everything is revealed and nothing can change.
    So a withdrawal is allowed exactly while the head task is a face-down one (its decisions are
    simultaneous and it has a ``withdraw`` hook), ``actor`` has answered it, and another house
    has not. Orders placed in turn order (the 1st edition's short supply of orders) are not
    simultaneous: they are final.

    Everyone is told only that ``actor`` is no longer ready (the task's own public event); the
    view shows it awaited again. Raises IllegalAction ``withdraw.too_late`` (no face-down decision
    in progress: the answers were revealed, or this one is not face-down) or ``withdraw.nothing``
    (``actor`` has no answer to take back: it has not answered, or is not part of this decision).
    """
    head, spec, pending = _face_down(state)
    if spec is None:
        raise IllegalAction("withdraw.too_late", "Nothing face-down can be taken back now: the choices were revealed.", house=actor)
    if any(d.actor == actor for d in pending):
        raise IllegalAction("withdraw.nothing", "You have nothing to take back: you have not chosen yet.", house=actor)
    new = state.clone()
    if not spec.withdraw(new, head, actor):
        raise IllegalAction("withdraw.nothing", "You have nothing to take back in this decision.", house=actor)
    new.version = state.version + 1
    return new
