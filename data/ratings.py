"""Skill ratings: Weng-Lin (openskill's Plackett-Luce model) for 4-seat Batak.

Free-for-all matches are rated as four one-player teams ranked by placement;
partnerships (seats 0+2 against 1+3) as two two-player teams. A player key that
occupies several seats of one match (the same computer level in two seats)
gets the mean of the changes computed for each of its seats.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma

Rating = tuple[float, float]  # (mu, sigma)


def rate_match(
    keys: Sequence[str],
    placements: Sequence[int],
    ratings: Mapping[str, Rating],
    *,
    partnership: bool,
) -> dict[str, Rating]:
    """New (mu, sigma) for every key of a 4-seat match.

    ``keys[s]`` is the player of seat ``s``, ``placements[s]`` its place (1 is
    best, equal places are ties), ``ratings`` the current rating of each key
    (a missing key starts at the model's default).
    """
    if len(keys) != 4 or len(placements) != 4:
        raise ValueError("a Batak match has exactly four seats")
    prior = {k: ratings.get(k, (DEFAULT_MU, DEFAULT_SIGMA)) for k in keys}
    teams_seats = [[0, 2], [1, 3]] if partnership else [[0], [1], [2], [3]]
    teams = [[MODEL.rating(*prior[keys[s]]) for s in team] for team in teams_seats]
    ranks = [float(min(placements[s] for s in team)) for team in teams_seats]
    new = MODEL.rate(teams, ranks=ranks)

    deltas: dict[str, list[tuple[float, float]]] = {}
    for team_seats, team_new in zip(teams_seats, new, strict=True):
        for s, r in zip(team_seats, team_new, strict=True):
            deltas.setdefault(keys[s], []).append((r.mu, r.sigma))
    out: dict[str, Rating] = {}
    for key, vals in deltas.items():
        mu0, _ = prior[key]
        dmu = sum(mu - mu0 for mu, _ in vals) / len(vals)
        sigma = sum(sg for _, sg in vals) / len(vals)
        out[key] = (mu0 + dmu, sigma)
    return out
