"""The rooms of ``game/`` and who may import whom (``docs/architecture.md``, The map).

Every module under ``game/`` is read with :mod:`ast` (nothing is imported): each ``import`` and
``from ... import`` is resolved to its absolute module name, relative ones included, and must be
one its package allows. Imports inside functions count the same as those at the top.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAME = Path(__file__).resolve().parent.parent / "game"

#: package -> the ``game.*`` packages or modules its modules may import (besides their own package)
ALLOWED = {
    "rules": set(),
    "live": {"game.rules", "game.models"},
    "site": {"game.live", "game.models", "game.options", "game.rules"},
    "boards": {"game.rules"},
    "devtools": None,  # anything
}
#: Django's app files and folders that stand beside the packages (``community.py`` and
#: ``notices.py``: models that ``models.py`` imports, so that none passes the length every module
#: keeps to)
APP_FILES = {"__init__.py", "admin.py", "apps.py", "models.py", "community.py", "notices.py", "options.py", "routing.py"}
APP_DIRS = {"migrations", "management", "data", "__pycache__", *ALLOWED}


def _module_name(path: Path) -> str:
    parts = path.relative_to(GAME.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """``[(line, absolute module name)]`` of every import in ``path``."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            # ``from game import x`` imports the module game.x when x is one
            out += [(node.lineno, f"{mod}.{a.name}" if mod in ("game", *(f"game.{p}" for p in ALLOWED)) else mod) for a in node.names]
    return out


def _within(mod: str, prefix: str) -> bool:
    return mod == prefix or mod.startswith(prefix + ".")


def _modules(package: str) -> list[Path]:
    return sorted((GAME / package).rglob("*.py"))


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_a_package_imports_only_what_it_may(package):
    allowed = ALLOWED[package]
    if allowed is None:
        return
    wrong = []
    for path in _modules(package):
        for line, mod in _imports(path):
            if not _within(mod, "game") or _within(mod, f"game.{package}"):
                continue
            if not any(_within(mod, ok) for ok in allowed):
                wrong.append(f"{path.relative_to(GAME.parent)}:{line} imports {mod}")
    assert not wrong, "\n".join(wrong)


#: the parts of the site that know a game only through the Ruleset contract
CONTRACT_ONLY = [*_modules("live"), *_modules("site"), GAME / "options.py", GAME / "models.py", GAME / "community.py", GAME / "notices.py"]
#: what of ``game.rules`` they may import: the registry (``game/rules/__init__.py``) and the contract
CONTRACT = {"__init__", "base"}


def _ruleset_package(mod: str) -> str | None:
    """The module or package of ``game/rules`` that ``mod`` (``game.rules.<name>...``, the name
    maybe one imported from the registry) is in, when it is one, else None."""
    name = mod.split(".")[2] if mod.count(".") >= 2 else "__init__"
    rules = GAME / "rules"
    return name if (rules / name).is_dir() or (rules / f"{name}.py").is_file() else None


def test_the_site_reaches_a_game_only_through_the_contract():
    """live/, site/, options.py, models.py, community.py and notices.py import no ruleset package (only the registry,
    ``game.rules``, and the contract, ``game.rules.base``)."""
    wrong = [
        f"{path.relative_to(GAME.parent)}:{line} imports {mod}"
        for path in CONTRACT_ONLY
        for line, mod in _imports(path)
        if _within(mod, "game.rules") and _ruleset_package(mod) not in (None, *CONTRACT)
    ]
    assert not wrong, "\n".join(wrong)


def _strings(path: Path) -> list[tuple[int, str]]:
    """``[(line, text)]`` of the string constants in ``path``'s code, docstrings left out."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_the_site_names_no_ruleset():
    """No ruleset id in the code of live/, site/, options.py and models.py: nothing there compares
    a game's ruleset with an id, keeps a table by ruleset id or defaults to one by name (the
    registry's ``DEFAULT_RULESET`` is the default); what differs between games comes from the
    contract."""
    from game.rules import REGISTRY

    wrong = [
        f"{path.relative_to(GAME.parent)}:{line} names the ruleset {text!r}"
        for path in CONTRACT_ONLY
        for line, text in _strings(path)
        if text in REGISTRY
    ]
    assert not wrong, "\n".join(wrong)


def test_the_templates_name_no_ruleset():
    """The templates list the games from the registry: none names a ruleset id."""
    from game.rules import REGISTRY

    templates = GAME.parent / "templates"
    wrong = [
        f"{path.relative_to(GAME.parent)} names the ruleset {rid!r}"
        for path in sorted(templates.rglob("*.html"))
        if "harness" not in path.name
        for rid in REGISTRY
        if f'"{rid}"' in path.read_text("utf-8") or f"={rid}" in path.read_text("utf-8")
    ]
    assert not wrong, "\n".join(wrong)


def _graph() -> dict[str, set[str]]:
    """``{module: the project's modules it imports}`` over ``game/`` (migrations left out) and
    ``gotweb/``, imports inside functions included; ``from package import name`` counts as an
    import of the module ``package.name`` when there is one, else of ``package``."""
    root = GAME.parent
    paths = [p for p in [*GAME.rglob("*.py"), *(root / "gotweb").rglob("*.py")] if "migrations" not in p.parts]
    names = {_dotted(p): p for p in paths}
    graph = {}
    for name, path in names.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                mod = ".".join(base + ([node.module] if node.module else []))
                found |= {f"{mod}.{a.name}" if f"{mod}.{a.name}" in names else mod for a in node.names}
        deps = set()
        for mod in found:
            while mod and mod not in names:
                mod = mod.rpartition(".")[0]
            if mod and mod != name:
                deps.add(mod)
        graph[name] = deps
    return graph


def _dotted(path: Path) -> str:
    parts = path.relative_to(GAME.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on:
                    low[v] = min(low[v], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def test_no_import_cycle():
    """No two modules of game/ or gotweb/ import each other, directly or through others, counting
    imports inside functions: a move goes one way, and each module can be read after those it uses."""
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_cycles():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


#: the longest a module of game/ or gotweb/ may be: past it, it has more than one job
MAX_MODULE_LINES = 600


def test_modules_stay_small():
    """Every module of game/ and gotweb/ (migrations left out) has at most 600 lines."""
    root = GAME.parent
    long = {
        str(p.relative_to(root)): n
        for p in [*GAME.rglob("*.py"), *(root / "gotweb").rglob("*.py")]
        if "migrations" not in p.parts and (n := len(p.read_text("utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert not long, long


def test_the_rules_import_no_django():
    wrong = [
        f"{path.relative_to(GAME.parent)}:{line} imports {mod}"
        for path in _modules("rules")
        for line, mod in _imports(path)
        if _within(mod, "django") or _within(mod, "channels")
    ]
    assert not wrong, "\n".join(wrong)


def test_nothing_in_game_imports_the_devtools():
    wrong = [
        f"{path.relative_to(GAME.parent)}:{line}"
        for path in sorted(GAME.rglob("*.py"))
        if not _within(_module_name(path), "game.devtools")
        for line, mod in _imports(path)
        if _within(mod, "game.devtools")
    ]
    assert not wrong, "\n".join(wrong)


def test_game_holds_only_the_packages_and_the_app_files():
    stray = [p.name for p in GAME.iterdir() if (p.is_dir() and p.name not in APP_DIRS) or (p.is_file() and p.suffix == ".py" and p.name not in APP_FILES)]
    assert not stray, stray


def test_the_checker_sees_relative_and_absolute_imports(tmp_path):
    """The resolver itself: a relative import from a sub-package is named absolutely."""
    mods = dict((m, line) for line, m in _imports(GAME / "live" / "consumer.py"))
    assert "game.live.hub" in mods and "game.models" in mods and "game.live.turn" in mods
    site = {m for _, m in _imports(GAME / "site" / "views" / "lobbies.py")}
    assert "game.site.lobbies" in site and "game.live.clients" in site
