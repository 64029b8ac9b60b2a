"""The URL helper of tests.postgres (the cluster itself is exercised by every
PostgreSQL store test under .ci/run)."""

from tests.postgres import with_database


def test_with_database_replaces_or_adds_the_name() -> None:
    assert (
        with_database("postgresql://b@127.0.0.1:5/postgres", "x") == "postgresql://b@127.0.0.1:5/x"
    )
    assert with_database("postgresql://u:p@h:5", "x") == "postgresql://u:p@h:5/x"
    assert with_database("postgresql://h/db?sslmode=disable", "x") == (
        "postgresql://h/x?sslmode=disable"
    )
