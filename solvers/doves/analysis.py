"""Exact Win(n)/Lose(n) analysis by iterative deepening over the numba proof search, plus the AI.

Depth d asks one question of the root: odd d "does the side to move win within d plies?", even d
"does every action lose within d plies?". The first yes is the exact value (the shallower questions
were all no). A transposition table lives across the iterations, so each one reuses the last.
The numba search runs without the GIL; a watcher thread turns a cancel (or a time budget) into the
shared STOP flag the search polls at every node.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator

import numpy as np

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.errors import InputError
from solvers.common.game import position_verdict
from solvers.doves import engine, search
from solvers.doves.model import COLOUR_NAMES, START, Position
from solvers.doves.rules import DEFAULT_RULES, Action, Rules, Step, legal_steps, to_ssn
from solvers.doves.values import Analysis, Value

DEFAULT_TT_BITS = 20


class Searcher:
    """One transposition table + scratch buffers; reuse it for several questions on related positions.

    Keyed by rules: the table's answers hold under ``rules`` only, so every position it is asked
    about must carry them (``analyse`` checks)."""

    def __init__(self, rules: Rules = DEFAULT_RULES, tt_bits: int = DEFAULT_TT_BITS) -> None:
        self.rules = rules
        self.tt = np.zeros((1 << tt_bits, 6), dtype=np.int64)
        self.stats = np.zeros(2, dtype=np.int64)
        self.buf = engine.Buffers()

    @property
    def nodes(self) -> int:
        return int(self.stats[search.NODES])

    def stop(self) -> None:
        self.stats[search.STOP] = 1

    @property
    def stopped(self) -> bool:
        return bool(self.stats[search.STOP])

    def ask(self, position: Position, plies: int, question: int) -> bool | None:
        """True/False, or None if the search was stopped before it could answer."""
        if self.stopped:
            return None
        b = self.buf
        answer = search.prove(
            np.uint64(position.code),
            position.to_move,
            plies,
            question,
            self.rules.allow_remove,
            self.rules.judge,
            self.tt,
            self.stats,
            b.pos,
            b.acts,
            b.codes,
            b.outs,
            b.libs,
            b.order,
            self.rules.hand,
        )
        return None if self.stopped else bool(answer)

    def wins_within(self, position: Position, plies: int) -> bool | None:
        return self.ask(position, plies, search.WIN)

    def loses_within(self, position: Position, plies: int) -> bool | None:
        return self.ask(position, plies, search.LOSE)

    def table_move(self, position: Position) -> int:
        key = search.hash_key(np.uint64(position.code), position.to_move)
        idx = int(key & np.uint64(self.tt.shape[0] - 1))
        if np.uint64(self.tt[idx, search.TT_KEY].view(np.uint64)) == key:
            return int(self.tt[idx, search.TT_BEST])
        return -1


class Watcher:
    """Sets the search's STOP flag when ``cancel`` fires or ``budget`` seconds pass."""

    def __init__(self, searcher: Searcher, cancel: CancelToken | None, budget: float | None = None) -> None:
        self.searcher = searcher
        self.cancel = cancel
        self.deadline = None if budget is None else time.monotonic() + budget
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._done.wait(0.01):
            if (self.cancel is not None and self.cancel.cancelled) or (
                self.deadline is not None and time.monotonic() > self.deadline
            ):
                self.searcher.stop()
                return

    def __enter__(self) -> Watcher:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()


def _ongoing(steps: list[Step]) -> list[Step]:
    return [s for s in steps if s.outcome == engine.ONGOING]


def _shortest(searcher: Searcher, position: Position, limit: int, question: int) -> int | None:
    """Smallest budget <= limit (right parity) for which ``question`` holds, None if none/stopped."""
    start = 1 if question == search.WIN else 2
    for plies in range(start, limit + 1, 2):
        answer = searcher.ask(position, plies, question)
        if answer is None:
            return None
        if answer:
            return plies
    return None


def best_line(searcher: Searcher, position: Position, value: Value) -> tuple[list[Action], list[Position]]:
    """Principal line of a proven value: the winner takes the fastest win, the loser resists longest."""
    line: list[Action] = []
    seen: list[Position] = []
    kind, plies = value.kind, value.plies
    while plies >= 1 and not searcher.stopped:
        steps = legal_steps(position)
        chosen: Step | None = None
        if kind == "win":
            immediate = [s for s in steps if s.outcome == engine.MOVER_WINS]
            if immediate:
                chosen, plies = immediate[0], 0
            else:
                best = None
                for s in _ongoing(steps):
                    n = _shortest(searcher, s.position, plies - 1, search.LOSE)
                    if n is not None and (best is None or n < best):
                        best, chosen = n, s
                if best is None:
                    break
                plies = best
        else:
            best = None
            for s in _ongoing(steps):
                n = _shortest(searcher, s.position, plies - 1, search.WIN)
                if n is not None and (best is None or n > best):
                    best, chosen = n, s
            if best is None:
                # only self-surrounding actions are left (never happens with Remove allowed, blog B2)
                suicide = [s for s in steps if s.outcome == engine.MOVER_LOSES]
                if suicide:
                    line.append(suicide[0].action)
                    seen.append(position)
                break
            plies = best
        assert chosen is not None
        line.append(chosen.action)
        seen.append(position)
        position = chosen.position
        kind = "lose" if kind == "win" else "win"
    return line, seen


def analyse(
    position: Position,
    *,
    max_depth: int = 15,
    cancel: CancelToken | None = None,
    budget: float | None = None,
    searcher: Searcher | None = None,
    on_depth: Callable[[Analysis], None] | None = None,
) -> Iterator[Analysis]:
    """Yield one Analysis per completed depth; the last one has the exact value if it was found.

    The game is played under the position's rules. Stops quietly at ``max_depth`` or at the time
    ``budget``; raises Cancelled when ``cancel`` fires."""
    searcher = searcher or Searcher(position.rules)
    if searcher.rules != position.rules:
        raise ValueError("the searcher's table holds another game's answers than the position's rules")
    start = time.perf_counter()
    escape: Action | None = None
    with Watcher(searcher, cancel, budget):
        for depth in range(1, max_depth + 1):
            question = search.WIN if depth % 2 else search.LOSE
            answer = searcher.ask(position, depth, question)
            if answer is None:
                break
            if answer:
                value = Value("win" if question == search.WIN else "lose", depth, depth)
                line, seen = best_line(searcher, position, value)
                if searcher.stopped:
                    break
                yield _result(value, line, seen, searcher, start, depth, position)
                return
            if question == search.LOSE:
                move = searcher.table_move(position)
                escape = Action.from_engine(move) if move >= 0 else escape
            line = [escape] if escape is not None else []
            yield _result(
                Value("unknown", 0, depth), line, [position] * len(line), searcher, start, depth, position
            )
    if cancel is not None and cancel.cancelled:
        raise Cancelled()


def _result(
    value: Value,
    line: list[Action],
    seen: list[Position],
    searcher: Searcher,
    start: float,
    depth: int,
    root: Position,
) -> Analysis:
    ssn = [to_ssn(p, a) for p, a in zip(seen, line, strict=True)]
    return Analysis(value, line, ssn, searcher.nodes, time.perf_counter() - start, depth, seen)


def analysis_verdict(position: Position, result: Analysis) -> str:
    """How an analysis of ``position`` ends, for ``workbench solve`` and the panel's status line
    alike: "Red to move: Win(5)"; an Unknown names the depth searched."""
    return position_verdict(COLOUR_NAMES[position.to_move].capitalize(), result.value, result.depth)


def final_value(position: Position, max_depth: int = 15, **kwargs: object) -> Analysis | None:
    """The deepest analysis (the proven value if one was found within ``max_depth``)."""
    results = list(analyse(position, max_depth=max_depth, **kwargs))  # type: ignore[arg-type]
    return results[-1] if results else None


# ---- playing AI ------------------------------------------------------------------------------------
LEVELS: dict[int, tuple[int, float]] = {  # level -> (depth in plies, time budget in seconds)
    1: (1, 0.5),
    2: (2, 1.0),
    3: (3, 2.0),
    4: (5, 4.0),
    5: (7, 8.0),
    6: (9, 15.0),
}


def _heuristic(step: Step) -> float:
    """Mover's view after the action: own boss breathing room against the enemy boss's."""
    from solvers.doves.rules import liberties

    libs = liberties(step.position)
    mover = 1 - step.position.to_move
    return libs.get(mover, 0) - 1.5 * libs.get(1 - mover, 0)


def choose_action(
    position: Position,
    level: int = 3,
    *,
    cancel: CancelToken | None = None,
    seed: int | None = None,
) -> Action | None:
    """The AI (under the position's rules): a proven win if one is within reach, else a safe action
    that squeezes the enemy boss."""
    depth, budget = LEVELS.get(level, LEVELS[3])
    rng = random.Random(seed)
    steps = legal_steps(position)
    if not steps:
        return None
    wins_now = [s for s in steps if s.outcome == engine.MOVER_WINS]
    if wins_now:
        return wins_now[0].action
    from solvers.doves import tablebase

    perfect = tablebase.best_action(position)  # a solved reduced game: play perfectly
    if perfect is not None:
        return perfect
    searcher = Searcher(position.rules, tt_bits=18)
    results = list(analyse(position, max_depth=depth, cancel=cancel, budget=budget, searcher=searcher))
    if results and results[-1].value.kind in ("win", "lose") and results[-1].line:
        return results[-1].line[0]  # the fastest win, or the longest resistance when lost
    candidates = _ongoing(steps) or steps
    safe: list[Step] = []
    unchecked: list[Step] = []
    searcher.stats[search.STOP] = 0
    with Watcher(searcher, cancel, budget / 2):
        for s in candidates:
            if level <= 1 or searcher.stopped:
                unchecked.append(s)
                continue
            # safe = the opponent cannot force a win within the remaining depth
            lost = searcher.wins_within(s.position, max(1, depth - 1))
            if lost is False:
                safe.append(s)
            elif lost is None:
                unchecked.append(s)
    pool = safe or unchecked or candidates
    noise = 2.0 if level <= 2 else 0.3
    scored = [(_heuristic(s) + rng.random() * noise, k) for k, s in enumerate(pool)]
    scored.sort(reverse=True)
    return pool[scored[0][1]].action


# ---- puzzle finder ----------------------------------------------------------------------------------
def winning_first_actions(searcher: Searcher, position: Position, plies: int) -> list[Action]:
    """Every first action that still wins within ``plies`` (a good puzzle has exactly one)."""
    found = []
    for step in legal_steps(position):
        if step.outcome == engine.MOVER_WINS or (
            step.outcome == engine.ONGOING and plies >= 3 and searcher.loses_within(step.position, plies - 1)
        ):
            found.append(step.action)
    return found


def find_puzzles(
    plies: int,
    count: int,
    *,
    seed: int = 0,
    unique: bool = True,
    max_games: int = 2000,
    rules: Rules = DEFAULT_RULES,
    cancel: CancelToken | None = None,
) -> Iterator[tuple[Position, Analysis]]:
    """Positions from random games whose exact value is Win(plies) for the side to move.

    Games are played by the level-1 AI (random among actions that do not lose at once), so the
    positions look like real play. With ``unique`` only positions with a single winning first action
    are kept. Each position is yielded with Red to move (colours swapped if needed). ``rules``
    stays an argument: the games start from the start position under them."""
    if plies < 1 or plies % 2 == 0:
        raise InputError("a win takes an odd number of plies (1, 3, 5, ...)")
    rng = random.Random(seed)
    seen: set[int] = set()
    found = 0
    for _game in range(max_games):
        position = START.with_rules(rules)
        for _ply in range(60):
            if cancel is not None:
                cancel.raise_if_cancelled()
            steps = _ongoing(legal_steps(position))
            if not steps:
                break
            if not any(s.outcome == engine.MOVER_WINS for s in legal_steps(position)):
                key = position.canonical_key()
                if key not in seen:
                    seen.add(key)
                    searcher = Searcher(rules, tt_bits=16)
                    result = final_value(position, max_depth=plies, searcher=searcher, cancel=cancel)
                    if result is not None and result.value.kind == "win" and result.value.plies == plies:
                        if not unique or _unique_win(searcher, position, plies, cancel):
                            yield _red_to_move(position, result, cancel)
                            found += 1
                            if found >= count:
                                return
                    elif result is not None and result.value.kind != "unknown":
                        break  # decided already: the game is no longer interesting
            position = rng.choice(steps).position
    return


def _unique_win(searcher: Searcher, position: Position, plies: int, cancel: CancelToken | None) -> bool:
    """Exactly one winning first action; the watcher stops the numba search when ``cancel`` fires."""
    searcher.stats[search.STOP] = 0
    with Watcher(searcher, cancel):
        wins = winning_first_actions(searcher, position, plies)
    if cancel is not None:
        cancel.raise_if_cancelled()  # a stopped search answers "no": never trust it
    return len(wins) == 1


def _red_to_move(
    position: Position, result: Analysis, cancel: CancelToken | None = None
) -> tuple[Position, Analysis]:
    if position.to_move == 0:
        return position, result
    swapped = Position.from_cells({i ^ 1: rc for i, rc in position.cells().items()}, 0, position.rules)
    analysis = final_value(swapped, max_depth=result.value.plies, cancel=cancel)
    assert analysis is not None
    return swapped, analysis
