"""The site behind PgBouncer in transaction mode (Debian's pgbouncer, ``deploy/pgbouncer/``):
sign-up, a new game, its acceptance, a move and its push, every query through PgBouncer.

PgBouncer 1.18 (Debian 12) lends a server connection for one transaction at a time and
cannot carry prepared statements or server-side cursors: ``DATABASE_PGBOUNCER=1`` turns
them off (``wordgame.settings.behind_pgbouncer``). Skipped without pgbouncer installed
(CI installs it: ``.ci/run``) or without PostgreSQL.
"""

from __future__ import annotations

import configparser
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from games.models import Game, Move
from tests.games.helpers import set_racks, tiles
from tests.production.conftest import ARTIFACTS, ROOT, Daphne, Process, fragment_ids, free_port, wait_for

pytestmark = [pytest.mark.services]

PGBOUNCER = shutil.which("pgbouncer") or (
    "/usr/sbin/pgbouncer" if Path("/usr/sbin/pgbouncer").exists() else ""
)


def pgbouncer_config(folder: Path, port: int, database_host: str, database_port: int) -> Path:
    """deploy/pgbouncer/pgbouncer.ini with this test's port, files and authentication (the
    test database trusts local connections): every other setting as deployed."""
    deployed = configparser.ConfigParser(interpolation=None, comment_prefixes=(";", "#"))
    deployed.read(ROOT / "deploy" / "pgbouncer" / "pgbouncer.ini")
    settings = dict(deployed["pgbouncer"])
    assert settings["pool_mode"] == "transaction"
    userlist = folder / "userlist.txt"
    userlist.write_text('"postgres" ""\n')
    settings |= {
        "listen_addr": "127.0.0.1",
        "listen_port": str(port),
        "unix_socket_dir": "",
        "logfile": str(folder / "pgbouncer.log"),
        "pidfile": str(folder / "pgbouncer.pid"),
        "auth_type": "trust",
        "auth_file": str(userlist),
        "admin_users": "postgres",
        "stats_users": "postgres",
    }
    config = folder / "pgbouncer.ini"
    lines = ["[databases]", f"* = host={database_host} port={database_port}", "", "[pgbouncer]"]
    lines += [f"{key} = {value}" for key, value in settings.items()]
    config.write_text("\n".join(lines) + "\n")
    return config


@pytest.fixture
def pgbouncer(postgres: None) -> Iterator[int]:
    """A pgbouncer in transaction mode in front of the test database; its port."""
    from django.db import connection

    if not PGBOUNCER:
        pytest.skip("pgbouncer is not installed (Debian: apt-get install pgbouncer)")
    folder = Path(tempfile.mkdtemp(prefix="wordgame-pgbouncer-"))
    port = free_port()
    config = pgbouncer_config(
        folder,
        port,
        connection.settings_dict["HOST"] or "127.0.0.1",
        int(connection.settings_dict["PORT"] or 5432),
    )
    args = [PGBOUNCER]
    if os.geteuid() == 0:
        # PgBouncer refuses to run as root: as postgres, which must read its files.
        owner = pwd.getpwnam("postgres")
        for path in [folder, *folder.iterdir()]:
            os.chown(path, owner.pw_uid, owner.pw_gid)
        args += ["-u", "postgres"]
    ARTIFACTS.mkdir(exist_ok=True)
    log = ARTIFACTS / "pgbouncer.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([*args, str(config)], stdout=out, stderr=subprocess.STDOUT)
    process = Process("pgbouncer", proc, log)

    def listening() -> bool:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True

    try:
        wait_for(listening, "pgbouncer to listen", process, timeout=15)
        yield port
    finally:
        process.stop()
        if (folder / "pgbouncer.log").exists():
            shutil.copy(folder / "pgbouncer.log", ARTIFACTS / "pgbouncer-own.log")
        shutil.rmtree(folder, ignore_errors=True)


def server_connections_used(port: int) -> int:
    """Server connections PgBouncer opened to the test database (its admin console)."""
    import psycopg

    with psycopg.connect(
        host="127.0.0.1",
        port=port,
        user="postgres",
        dbname="pgbouncer",
        autocommit=True,
        prepare_threshold=None,
    ) as admin:
        rows = admin.execute("SHOW POOLS").fetchall()
        names = [d.name for d in admin.execute("SHOW POOLS").description or []]
    column = names.index
    return sum(row[column("sv_active")] + row[column("sv_idle")] + row[column("sv_used")] for row in rows)


def test_sign_up_new_game_and_a_move_through_pgbouncer_in_transaction_mode(
    pgbouncer: int, start_daphne: Callable[..., Daphne], ben: Any
) -> None:
    server = start_daphne(
        "daphne-pgbouncer",
        env={
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:{pgbouncer}/wordgame",
            "DATABASE_PGBOUNCER": "1",
            "DB_POOL_MIN_SIZE": "1",
            "DB_POOL_MAX_SIZE": "4",
        },
    )
    signed_up = server.visitor().post(
        "/accounts/signup/",
        {
            "username": "dora",
            "email": "dora@example.org",
            "password1": "s3cret-Pass-9",
            "password2": "s3cret-Pass-9",
        },
        htmx=False,
    )
    assert signed_up.status == 302, signed_up.text[-2000:]
    dora = User.objects.get(username="dora")

    created = server.visitor(dora).post(
        "/games/new/", {"mode": "friend", "opponent": "ben", "language": "en", "public": "on"}, htmx=False
    )
    assert created.status == 302, created.text[-2000:]
    game = Game.objects.get(seats__user=dora)
    accepted = server.visitor(ben).post(f"/games/{game.pk}/accept/", {"version": game.version})
    assert accepted.status == 200, accepted.text[-2000:]
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    set_racks(game, ("CATSEOD", "CATSEOD"))
    mover, other = (dora, ben) if game.turn_seat == game.seats.get(user=dora).index else (ben, dora)
    page = server.visitor(mover).get(f"/games/{game.pk}/")
    assert page.status == 200
    assert re.search(r'id="board"', page.text)

    with server.visitor(other).websocket(f"/ws/games/{game.pk}/") as socket_of_other:
        assert "board" in fragment_ids(socket_of_other.recv(timeout=10))
        played = server.visitor(mover).post(
            f"/games/{game.pk}/play/",
            {
                "version": Game.objects.get(pk=game.pk).version,
                "tiles": tiles((7, 7, "C"), (7, 8, "A"), (7, 9, "T")),
                "action_id": "pgb-1",
            },
        )
        assert played.status == 200, played.text[-2000:]
        assert "scoreboard" in fragment_ids(socket_of_other.recv(timeout=10))
    assert Move.objects.filter(game=game, kind="play").count() == 1
    # The lobby reads the same statements again and again (psycopg would prepare them
    # from the fifth time): still answered through PgBouncer.
    for _ in range(8):
        assert server.visitor(mover).get("/games/").status == 200
    assert server_connections_used(pgbouncer) >= 1
