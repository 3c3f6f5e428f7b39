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


AUTO: dict[str, AutoFn] = {}
DECIDE: dict[str, DecisionSpec] = {}


def auto(kind: str) -> Callable[[AutoFn], AutoFn]:
    def reg(fn: AutoFn) -> AutoFn:
        AUTO[kind] = fn
        return fn

    return reg


def decision(kind: str, actions: tuple[str, ...]):
    def reg(cls_or_ns):
        DECIDE[kind] = DecisionSpec(cls_or_ns.decisions, cls_or_ns.handle, actions)
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
        IllegalAction("action.unexpected"): the action's type does not answer the decision.
        IllegalAction(...): any rule refusing the action (see docs/scenarios.md).
    """
    if state.result is not None:
        raise IllegalAction("game.over", "The game is over.")
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
