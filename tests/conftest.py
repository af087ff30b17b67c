"""Shared test settings: Hypothesis profiles, and the markers every test gets from where it is
and what it uses.

Helpers live in the test modules themselves (conftest modules are not meant to be imported).

Hypothesis profiles (``HYPOTHESIS_PROFILE=dev`` or ``--hypothesis-profile=dev``):

- ``ci`` (the default, and what ``make test`` uses): Hypothesis's example counts, or those a test
  sets itself; no deadline (a loaded machine is not a slow test);
- ``dev`` (``make test-fast``): a tenth of the examples, whether or not a test sets its own count.

Markers (pyproject.toml registers them; ``-m "not e2e and not cluster"`` is ``make test-fast``):

- ``e2e``: everything under ``tests/e2e`` (a real Chromium);
- ``cluster``: uses Redis (``redis_server``), several nodes (``start_cluster``, or the session's
  ``cluster``, whose tests are one ``xdist_group``: one worker starts it once) or HAProxy;
- ``postgres``: needs PostgreSQL (``pg_url``, or a ``"postgresql"`` parameter);
- ``slow``: one of the longest tests (``SLOW`` below, at least ~10 s alone);
- ``serial``: measures wall or CPU time, so ``make test`` runs it alone after the parallel pass
  (``SERIAL`` below);
- ``one_worker`` (set by a module itself, ``pytestmark``): under pytest-xdist, the module's tests
  run on one worker, as the browser modules' do, so that a module-scoped server (and what it
  plays) starts once and not once on each worker that draws one of them.

These are applied here by path, fixture and name, so that a test moved or added keeps its
markers without a line of its own; a test may also carry the marker itself.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.rich_utils  # noqa: F401  (see below)
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", settings.get_profile("ci"), max_examples=10)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

TESTS = Path(__file__).resolve().parent

# Typer translates its help's marks ("[default: ...]") once a process, when typer.rich_utils is
# first imported (salad.cli.library_words): imported here, they are English in every test
# process whatever a French run in it does first (a run in a process of its own tests French).

CLUSTER_FIXTURES = frozenset({"redis_server", "session_redis", "start_cluster", "cluster"})
SHARED_CLUSTER = "session-cluster"
"""The xdist_group of the tests that use the session's cluster (the ``cluster`` fixture)."""
POSTGRES_FIXTURES = frozenset({"pg_url", "pg_admin"})

SLOW: dict[str, frozenset[str] | None] = {
    # path under tests/ -> the test functions (by name, all their parameters) that took 8 s or
    # more in a run (--durations); every test that starts a cluster is slow as well.
    "e2e/test_browser.py": frozenset(
        {
            "test_friend_joins_plays_a_hand_reloads_and_is_watched",
            "test_quick_play_keyboard_illegal_click_and_panels",
        }
    ),
    "e2e/test_table_games.py": frozenset(
        {"test_the_games_list_replays_and_reviews_a_finished_game"}
    ),
    "e2e/test_table_hand_end.py": frozenset({"test_hand_summary_waits_for_next_hand"}),
    "e2e/test_table_keyboard.py": frozenset({"test_whole_game_by_keyboard"}),
    "e2e/test_talk.py": frozenset({"test_chat_mute_hint_play_and_undo_at_a_table_of_bots"}),
    "test_bots.py": frozenset({"test_skip_the_salad_phases_are_all_met"}),
    "test_cli.py": frozenset({"test_a_lean_install_runs_the_core_commands"}),
    "test_plain.py": frozenset({"test_without_textual_play_names_the_extra_and_plain_still_works"}),
    "test_openspiel.py": frozenset({"test_random_sim_test"}),
    "test_properties.py": frozenset(
        {
            "test_random_games_follow_the_rules",
            "test_undo_restores_the_exact_state",
            "test_any_illegal_move_number_is_rejected_and_changes_nothing",
        }
    ),
    "test_records.py": frozenset({"test_random_games_round_trip"}),
    "test_review.py": frozenset({"test_passes_and_trump_choices_are_reviewed"}),
    "test_review_cli.py": frozenset(
        {
            "test_the_json_review_is_the_librarys",
            "test_the_text_review_lists_hands_and_the_costliest_choices",
        }
    ),
    "test_skip_the_salad.py": frozenset(
        {
            "test_property_cards_once_legal_moves_only_fixed_totals",
            "test_property_records_round_trip_and_verify",
        }
    ),
    "test_tournament.py": frozenset(
        {"test_ray_backend_matches_local", "test_cli_ctrl_c_then_resume"}
    ),
    "server/test_hostile_process.py": frozenset(
        {"test_half_sent_requests_are_closed_and_others_still_answered"}
    ),
    "server/test_hostile_wire.py": frozenset(
        {"test_a_spectator_that_never_reads_gets_the_latest_state"}
    ),
    "server/test_openapi_contract.py": frozenset(
        {"test_openapi_description_holds_under_schemathesis"}
    ),
    "server/test_restart.py": frozenset(
        {"test_kill_and_restart", "test_restart_keeps_lobby_and_finished_games"}
    ),
    "server/test_restart_hand_end.py": frozenset(
        {
            "test_a_restart_keeps_the_summary_and_the_wait",
            "test_a_finished_game_keeps_its_last_summary_when_unloaded",
        }
    ),
    "server/test_storage.py": frozenset(
        {"test_a_batch_of_moves_the_database_does_not_answer_is_refused_in_time"}
    ),
    "server/test_unload.py": frozenset(
        {"test_a_connected_table_stays_and_a_bot_game_keeps_playing"}
    ),
}

SERIAL: dict[str, frozenset[str] | None] = {
    # path under tests/ -> the test functions that measure time (None: the whole module)
    "test_bots.py": frozenset({"test_every_bot_accepts_move_time", "test_basic_is_fast"}),
    "test_tui.py": frozenset({"test_pages_open_and_close_while_an_expert_thinks"}),
    "server/test_thinking.py": None,
    "server/test_fair.py": frozenset(
        {"test_a_quick_table_waits_for_one_slow_job_at_most_among_many"}
    ),
    "e2e/test_pickers.py": frozenset({"test_bot_takes_over_an_away_seat_and_hands_it_back"}),
    # (The floods that uvicorn's public options cannot cut are xfail, whatever the load: they
    # run in the parallel pass.)
    "server/test_hostile_process.py": frozenset(
        {"test_a_burst_of_connections_from_one_address_is_served"}  # 300 at once, 20 s each
    ),
    "server/test_hostile_rate.py": frozenset(
        {"test_a_connection_that_floods_the_server_is_closed"}
    ),
    "server/test_tables.py": frozenset(
        {"test_a_bot_turn_that_loses_its_cancellation_does_not_hold_up_the_close"}
    ),
    "server/test_cluster_leases.py": frozenset(
        {
            "test_many_leases_let_go_do_not_hold_the_renewal_up",
            "test_a_node_stops_though_a_cancellation_is_lost",
        }
    ),
    "server/test_cluster.py": frozenset(
        {
            "test_a_table_survives_losing_its_node",
            "test_a_killed_nodes_tables_are_taken_before_its_leases_lapse",
            "test_a_node_that_comes_back_disturbs_no_running_table",
        }
    ),
}


@pytest.fixture(scope="session", autouse=True)
def data_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The user's data directory (``XDG_DATA_HOME``) of the tests and of every process they
    start: the session's own, never the real one (``salad score`` keeps its sheet there,
    ``salad serve`` its secret and its default database); and their cache directory
    (``XDG_CACHE_HOME``: the command's compiled catalogs)."""
    path = tmp_path_factory.mktemp("data-home")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("XDG_DATA_HOME", str(path))
        env.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache-home")))
        yield path


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The figures tests measured (``record_property("figure", text)``), after the run."""
    reports = terminalreporter.stats.get("passed", []) + terminalreporter.stats.get("failed", [])
    figures = [
        str(value)
        for report in reports
        for name, value in getattr(report, "user_properties", ())
        if name == "figure"
    ]
    if figures:
        terminalreporter.section("Figures")
        for figure in figures:
            terminalreporter.write_line(figure)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--serial-modules",
        action="store_true",
        help="read only the test modules SERIAL names (make's pass of serial tests: the other "
        "modules, and the doctests, hold none of them and take seconds to import)",
    )


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With ``--serial-modules``, every file but the modules of ``SERIAL`` is left unread."""
    if not config.getoption("serial_modules") or collection_path.is_dir():
        return None
    try:
        where = collection_path.resolve().relative_to(TESTS).as_posix()
    except ValueError:  # src/ and README.md: doctests, never serial
        return True
    return where not in SERIAL


def _named(table: dict[str, frozenset[str] | None], where: str, name: str) -> bool:
    if where not in table:
        return False
    names = table[where]
    return names is None or name in names


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's, which reads the xdist_group marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test as e2e, cluster, postgres, slow and serial by what it is (see above).

    A browser test, or one marked ``one_worker``, is also in its module's ``xdist_group``: under
    ``--dist loadgroup`` a module runs on one worker, which starts its Chromium (and any server
    of the module) once."""
    grouped = config.pluginmanager.hasplugin("xdist")  # its marker exists only with it
    for item in items:
        try:
            where = item.path.resolve().relative_to(TESTS).as_posix()
        except ValueError:  # a doctest in src/ or README.md
            continue
        fixtures = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        params = set(map(str, callspec.params.values())) if callspec is not None else set()
        name = getattr(item, "originalname", item.name)
        if where.startswith("e2e/"):
            item.add_marker(pytest.mark.e2e)
        if grouped and (where.startswith("e2e/") or item.get_closest_marker("one_worker")):
            item.add_marker(pytest.mark.xdist_group(where))
        elif grouped and "cluster" in fixtures:
            item.add_marker(pytest.mark.xdist_group(SHARED_CLUSTER))
        if fixtures & CLUSTER_FIXTURES:
            item.add_marker(pytest.mark.cluster)
        if fixtures & POSTGRES_FIXTURES or "postgresql" in params:
            item.add_marker(pytest.mark.postgres)
        if _named(SLOW, where, name) or fixtures & {"start_cluster", "cluster"}:
            item.add_marker(pytest.mark.slow)
        if _named(SERIAL, where, name):
            item.add_marker(pytest.mark.serial)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        _longest_first(items)


def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    """Under ``--dist loadgroup``, the browser tests, each in its module's ``xdist_group``, must
    reach pytest-xdist's scheduler with their group in their node id (``…@e2e/test_x.py``):
    where none has it, the groups do not hold, and each browser module would run spread over
    every worker, each starting the module's servers and games anew (pytest 9.2 with
    pytest-xdist 3.8: pytest-xdist issue 1386)."""
    config = node.config
    if config.getoption("dist") != "loadgroup":
        return
    browser = [i for i in ids if i.startswith("tests/e2e/")]
    if browser and not any("@" in i.rpartition("]")[2] for i in browser):
        raise pytest.UsageError(
            f"--dist loadgroup: no browser test reached the scheduler in its group (the first: "
            f"{browser[0]}); this pytest and pytest-xdist do not group tests (pytest-xdist "
            "issue 1386): install the pytest that pyproject.toml asks for (make setup)"
        )


def _longest_first(items: list[pytest.Item]) -> None:
    """Under workers, the slow tests first (a browser module with the most of them first of
    all, whole): started early, they no longer end the pass on one worker while the others
    idle. The order is the same on every worker, as pytest-xdist requires."""

    def unit(item: pytest.Item) -> str:
        group = item.get_closest_marker("xdist_group")
        return str(group.args[0]) if group is not None else item.nodeid

    weight = Counter(unit(item) for item in items if item.get_closest_marker("slow"))
    items.sort(key=lambda item: -weight[unit(item)])
