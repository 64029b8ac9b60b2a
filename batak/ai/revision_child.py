"""The far side of :mod:`batak.ai.revision`: computer players of an earlier revision.

:mod:`batak.ai.revision` runs this file with the working directory and
``PYTHONPATH`` set to a temporary ``git worktree`` of that revision, so every
``batak`` import below is the *old* engine and players. It speaks one JSON
object a line on stdin/stdout:

* it starts by writing ``{"ready": true, "batak": "<path of the batak imported>"}``;
* ``{"op": "new", "kind": "hard", "seed": 5, "budget": null}`` makes a player and
  answers ``{"id": 1}``;
* ``{"op": "choose", "id": 1, "observation": {...}}`` answers
  ``{"action": "play TH"}`` (the text of :func:`batak.deal.format_action`);
* ``{"op": "drop", "id": 1}`` forgets a player and answers ``{}``;
* any failure answers ``{"error": "..."}``; end of input ends the process.

The observation is :func:`batak.ai.revision.observation_to_json`: the seat's
own view only (the other seats' legal sets, zero in an observation, are not
sent at all). It needs a revision whose engine has today's API:
``Observation``, ``Contract``, ``Trick``, ``Phase``, ``Rules.from_dict``,
``parse_action``/``format_action`` and ``batak.ai.make_player``.

Nothing in the project imports this module; only its text runs, in the old tree.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def _observation(data: dict[str, Any]) -> Any:
    from batak.cards import Suit
    from batak.deal import Contract, Observation, Phase, Trick, parse_action
    from batak.rules import Rules

    contract = data["contract"]
    trump = data["trump"]
    scores = data["scores"]
    return Observation(
        seat=data["seat"],
        rules=Rules.from_dict(data["rules"]),
        dealer=data["dealer"],
        phase=Phase(data["phase"]),
        hand=data["hand"],
        to_act=data["to_act"],
        legal=tuple(parse_action(text) for text in data["legal"]),
        calls=tuple((seat, bid) for seat, bid in data["calls"]),
        high_bid=data["high_bid"],
        contract=None
        if contract is None
        else Contract(
            contract["seat"],
            contract["bid"],
            contract["forced"],
            None if contract["trump"] is None else Suit(contract["trump"]),
        ),
        trump=None if trump is None else Suit(trump),
        trump_broken=data["trump_broken"],
        trick_leader=data["trick_leader"],
        trick=tuple(data["trick"]),
        tricks=tuple(
            Trick(t["leader"], tuple(t["cards"]), t["winner"], tuple(t["legal"]))
            for t in data["tricks"]
        ),
        tricks_won=tuple(data["tricks_won"]),
        hand_sizes=tuple(data["hand_sizes"]),
        played=data["played"],
        scores=None if scores is None else tuple(scores),
    )


def serve(inp: Any, out: Any) -> int:
    import batak
    from batak.ai import make_player
    from batak.deal import format_action

    players: dict[int, Any] = {}
    out.write(json.dumps({"ready": True, "batak": batak.__file__}) + "\n")
    out.flush()
    for line in inp:
        try:
            request = json.loads(line)
            op = request["op"]
            if op == "new":
                key = len(players) + 1
                while key in players:
                    key += 1
                players[key] = make_player(request["kind"], request["seed"], request["budget"])
                answer: dict[str, Any] = {"id": key}
            elif op == "choose":
                action = players[request["id"]].choose(_observation(request["observation"]))
                answer = {"action": format_action(action)}
            elif op == "drop":
                players.pop(request["id"], None)
                answer = {}
            else:
                answer = {"error": f"unknown op {op!r}"}
        except Exception as exc:  # every failure goes back to the arena, named
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        try:
            out.write(json.dumps(answer) + "\n")
            out.flush()
        except BrokenPipeError:  # the arena stopped (an SPRT decided): nobody reads on
            return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(serve(sys.stdin, sys.stdout))
