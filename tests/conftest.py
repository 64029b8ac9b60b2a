"""Shared test set-up: the project root is importable; the service tests' ``env``."""

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Any]:
    """The table service of ``tests/bot`` on a fake clock, its events recorded:
    ``(service, recorder, timers, store)``, closed after the test."""
    from test_bot_service import make_service  # tests/bot, on the path for its tests

    service, rec, timers, store = await make_service(tmp_path / "t.sqlite3")
    yield service, rec, timers, store
    await service.close()
    await store.close()


# ---------------------------------------------------------------------------------------
# Discord conformance: every request the real bot sends in the end-to-end tests is
# captured (tests/fakediscord/conformance.py) and checked again, apart from the fake's own
# answers, against Discord's specification and documented rules. A violation fails the run
# even where the bot swallowed the fake's refusal and the test itself stayed green.

_CONFORMANCE: dict[str, Any] = {}


def pytest_configure(config: pytest.Config) -> None:
    import os
    import tempfile

    from tests.fakediscord.conformance import ENV

    if not os.environ.get(ENV):
        os.environ[ENV] = tempfile.mkdtemp(prefix="batak-conformance-")
        _CONFORMANCE["made"] = os.environ[ENV]
    _CONFORMANCE["dir"] = os.environ[ENV]


def _is_worker(config: pytest.Config) -> bool:
    """A pytest-xdist worker: it captures into the directory its controller chose, and the
    controller checks the whole of it once every worker is done."""
    return hasattr(config, "workerinput")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    from tests.fakediscord.conformance import check

    if _is_worker(session.config):
        return
    directory = Path(_CONFORMANCE.get("dir", ""))
    if not directory.is_dir() or not any(directory.glob("*.jsonl")):
        return
    report = check([directory])
    _CONFORMANCE["report"] = report
    if report.findings and session.exitstatus == 0:
        session.exitstatus = 1


def pytest_terminal_summary(terminalreporter: Any) -> None:
    import shutil

    report = _CONFORMANCE.get("report")
    if report is not None:
        for line in report.lines():
            terminalreporter.write_line(line)
    made = _CONFORMANCE.get("made")
    if made:
        shutil.rmtree(made, ignore_errors=True)
