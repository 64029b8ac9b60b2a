"""The replay picture: its frames follow the record, and the file decodes to them."""

import io
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from batak.cli import selfplay_records
from batak.records import RecordError
from batak.rules import preset
from images.__main__ import main as images_main
from images.palette import palette_for
from images.replay import caption, render_frame, render_replay, replay_view
from images.theme import get_theme

NAMES = ["Ayşe", "Mehmet", "Şule", "Emre"]


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    return selfplay_records(preset("standard"), 2, 3, ["easy"] * 4) + selfplay_records(
        preset("esli"), 1, 4, ["easy"] * 4
    )


def test_frames_follow_the_record(records: list[dict[str, Any]]) -> None:
    for record in records:
        view = replay_view(record, NAMES)
        kinds = [f.kind for f in view.frames]
        assert kinds == ["deal", "auction"] + ["trick"] * 13 + ["score"]
        assert [set(h) for h in view.frames[0].hands] == [set(h) for h in record["hands"]]
        assert view.frames[1].calls == tuple((c["seat"], c["bid"]) for c in record["auction"])
        held = [set(h) for h in record["hands"]]
        won = [0, 0, 0, 0]
        for number, (frame, trick) in enumerate(
            zip(view.frames[2:15], record["tricks"], strict=True), start=1
        ):
            assert frame.trick_number == number
            assert frame.leader == trick["leader"] and frame.winner == trick["winner"]
            for i, code in enumerate(trick["cards"]):
                seat = (trick["leader"] + i) % 4
                assert frame.trick[seat] == code
                held[seat].discard(code)
            won[trick["winner"]] += 1
            assert [set(h) for h in frame.hands] == held
            assert [len(h) for h in frame.hands] == [13 - number] * 4
            assert list(frame.tricks_won) == won
            assert NAMES[trick["winner"]] in caption(view, frame)
        last = view.frames[-1]
        assert list(last.tricks_won) == record["tricks_won"]
        assert list(view.scores) == record["score"]
        assert view.holder == record["contract"]["seat"]
        assert view.partnership is record["rules"]["partnership"]


def test_the_file_decodes_to_the_frames(records: list[dict[str, Any]]) -> None:
    view = replay_view(records[0], NAMES)
    for fmt, kind in (("png", "PNG"), ("gif", "GIF")):
        data = render_replay(view, fmt=fmt)
        assert len(data) <= 8 * 1024 * 1024
        with Image.open(io.BytesIO(data)) as im:
            assert im.format == kind
            assert im.n_frames == len(view.frames) == 16
            assert im.size == (720, 760)
            assert im.info.get("duration") == view.frames[0].duration_ms
            im.seek(im.n_frames - 1)
            assert im.info.get("duration") == view.frames[-1].duration_ms
    # frames decode to exactly what was drawn (mapped onto the theme's palette)
    pal = palette_for(get_theme("dark"))
    with Image.open(io.BytesIO(render_replay(view))) as im:
        for index in (0, 5, 15):
            im.seek(index)
            decoded = im.convert("RGB")
            drawn = render_frame(view, view.frames[index]).quantize(
                palette=pal, dither=Image.Dither.NONE
            )
            assert decoded.tobytes() == drawn.convert("RGB").tobytes()


def test_frames_differ_where_the_play_does(records: list[dict[str, Any]]) -> None:
    view = replay_view(records[0], NAMES)
    first = render_frame(view, view.frames[2])
    second = render_frame(view, view.frames[3])
    assert first.tobytes() != second.tobytes()


def test_bad_input_is_named(records: list[dict[str, Any]]) -> None:
    broken = dict(records[0], score=[0, 0, 0, 0])
    with pytest.raises(RecordError, match=r"^score: expected"):
        replay_view(broken, NAMES)
    with pytest.raises(ValueError, match=r"names: expected 4 names"):
        replay_view(records[0], NAMES[:3])
    with pytest.raises(ValueError, match=r"fmt must be"):
        render_replay(replay_view(records[0], NAMES), fmt="webm")


def test_command_line(
    records: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deals.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    out = tmp_path / "replay.png"
    assert images_main(["replay", str(path), str(out), "--deal", "3", "--names", "a,b,c,d"]) == 0
    with Image.open(out) as im:
        assert im.n_frames == 16
    assert "16 frames" in capsys.readouterr().out
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(records[0]) + "\n" + json.dumps(dict(records[1], dealer=7)) + "\n")
    assert images_main(["replay", str(bad), str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"error: {bad}: line 2: dealer: expected an integer 0..3, got 7"
    assert images_main(["replay", str(path), str(out), "--deal", "4"]) == 2
    assert "holds 3 deal(s)" in capsys.readouterr().err
