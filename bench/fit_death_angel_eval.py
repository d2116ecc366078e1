"""Fit Death Angel's state evaluation (cardkit/games/death_angel/evaluation.py) to the outcomes of
heuristic games, and print the weights and how well they predict.

    python bench/fit_death_angel_eval.py [--games 400] [--players 1-6] [--every 5] [--seed 900000]

Plays ``--games`` heuristic games per player count (seeds from ``--seed``, far from the seeds the
playtest and the benchmarks use), takes the board's :func:`features` at every ``--every``-th
decision, labels each with whether that game was won, and fits a logistic model by Newton's method
(a small ridge penalty) on the even-numbered games; the odd-numbered ones are held out.  Prints the
weights as a Python tuple for ``WEIGHTS`` and, on the held-out states, the log loss and the Brier
score of the fitted model, of the weights now in the module, and of the base rate.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", default="1-6")
    parser.add_argument("--every", type=int, default=5)
    parser.add_argument("--seed", type=int, default=900_000)
    parser.add_argument("--ridge", type=float, default=1e-3)
    args = parser.parse_args()

    from cardkit.games.death_angel.engine import Game
    from cardkit.games.death_angel.evaluation import FEATURES, WEIGHTS, evaluate, features
    from cardkit.games.death_angel.heuristic import heuristic_agent
    from cardkit.load.project import load_project

    cards = load_project(Path(__file__).resolve().parents[1]).card_set("death-angel")
    low, _, high = args.players.partition("-")
    train: list[tuple[list[float], float]] = []
    test: list[tuple[list[float], float, float]] = []
    wins = games = 0
    for players in range(int(low), int(high or low) + 1):
        game = Game(cards, players)
        for k in range(args.games):
            seed = args.seed + 1000 * players + k
            st = game.new_state(seed)
            agent = heuristic_agent(seed)
            rows: list[tuple[list[float], float]] = []
            n = 0
            while st.decision is not None:
                if n % args.every == 0 and st.ready:
                    rows.append((features(st), evaluate(st)))
                st.apply(agent(st, st.decision))
                n += 1
            won = 1.0 if st.outcome is not None and st.outcome.win else 0.0
            wins += int(won)
            games += 1
            if k % 2 == 0:
                train.extend((x, won) for x, _ in rows)
            else:
                test.extend((x, won, now) for x, now in rows)
    dim = len(FEATURES)
    w = [0.0] * dim
    for _ in range(25):  # Newton's method on the ridge-penalised log loss
        grad = [args.ridge * wi for wi in w]
        hess = [[args.ridge if i == j else 0.0 for j in range(dim)] for i in range(dim)]
        for x, y in train:
            z = sum(wi * xi for wi, xi in zip(w, x))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            g, h = p - y, p * (1 - p)
            for i in range(dim):
                if x[i]:
                    grad[i] += g * x[i]
                    row = hess[i]
                    hx = h * x[i]
                    for j in range(dim):
                        row[j] += hx * x[j]
        step = solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step)]
        if max(abs(s) for s in step) < 1e-7:
            break
    base = sum(y for _, y in train) / max(1, len(train))

    def losses(predict: list[float]) -> tuple[float, float]:
        ll = br = 0.0
        for p, (_, y, _) in zip(predict, test):
            p = min(1 - 1e-9, max(1e-9, p))
            ll -= y * math.log(p) + (1 - y) * math.log(1 - p)
            br += (p - y) ** 2
        return ll / len(test), br / len(test)

    fitted = [0.0 if x[5] == 0 else 1 / (1 + math.exp(-max(-30.0, min(30.0, sum(a * b for a, b in zip(w, x))))))
              for x, _, _ in test]
    print(f"{games} games ({wins} won), {len(train)} training states, {len(test)} held-out states")
    print("WEIGHTS = (" + ", ".join(f"{v:.4g}" for v in w) + ")  # " + ", ".join(FEATURES))
    for name, predict in (("fitted", fitted), ("module's WEIGHTS", [now for _, _, now in test]),
                          ("base rate", [base] * len(test))):
        ll, br = losses(predict)
        print(f"{name:>18}: held-out log loss {ll:.4f}, Brier {br:.4f}")
    del WEIGHTS


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (a is small and positive definite)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


if __name__ == "__main__":
    main()
