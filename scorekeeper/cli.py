"""Command line: ``scorekeeper serve|export|import|backup|keys``, and flask commands."""

from __future__ import annotations

import argparse
import contextlib
import socket
import sqlite3
import sys
from pathlib import Path
from typing import Any

import click
from flask import Flask


def register(app: Flask) -> None:
    """Add the app's own flask commands: ``flask export`` and ``flask import``."""

    @app.cli.command("export")
    @click.option("--output", "-o", default="-", help="file to write (standard output by default)")
    def export_command(output: str) -> None:
        """Write every session as JSON."""
        try:
            export_to(output)
        except OSError as error:
            raise click.ClickException(str(error)) from None

    @app.cli.command("import")
    @click.argument("source")
    def import_command(source: str) -> None:
        """Read sessions exported as JSON into an empty database (- reads standard input)."""
        from scorekeeper.transfer import TransferError

        try:
            import_from(source)
        except (TransferError, OSError) as error:
            raise click.ClickException(str(error)) from None
        except Exception as error:  # a refusal in one line, never a traceback
            raise click.ClickException(unforeseen(error)) from None


def export_to(output: str) -> int:
    """Write every session as indented UTF-8 JSON to a file, or to standard output for ``-``."""
    from scorekeeper.transfer import dumps, export_sessions

    document = export_sessions()
    text = dumps(document)
    if output == "-":
        if hasattr(sys.stdout, "buffer"):
            sys.stdout.flush()
            sys.stdout.buffer.write(text.encode("utf-8"))
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(text)
    else:
        Path(output).write_text(text, encoding="utf-8")
        print(f"Exported {len(document['sessions'])} sessions to {output}.", file=sys.stderr)
    return len(document["sessions"])


def import_from(source: str) -> int:
    """Import the sessions of an export file, or of standard input for ``-``."""
    from scorekeeper.transfer import import_sessions, loads

    data = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    count = import_sessions(loads(data))
    print(f"Imported {count} sessions.", file=sys.stderr)
    return count


def unforeseen(error: Exception) -> str:
    """Say in one line that an import failed for a reason the checks did not foresee."""
    reason = " ".join(str(error).split())[:200]
    return (
        f"the document could not be imported ({type(error).__name__}: {reason}); "
        "nothing was imported."
    )


def backup_to(app: Flask, path: str | None) -> int:
    """Copy the app's SQLite database to a file, or into its backups folder; say where."""
    from scorekeeper.backup import backup_folder, copy_database, sqlite_file

    database = sqlite_file(app.config["SQLALCHEMY_DATABASE_URI"])
    target = backup_folder(database) if path is None else Path(path)
    written = copy_database(database, target, make_folder=path is None)
    print(f"Backed up {database} to {written}.")
    return 0


def keys_of(session_id: str | None) -> int:
    """List the sessions, or hand out new keys for one whose keys were lost."""
    import sqlalchemy as sa
    import sqlalchemy.orm as so

    from scorekeeper import services
    from scorekeeper.extensions import db
    from scorekeeper.models import GameSession

    if session_id is None:
        sessions = db.session.scalars(
            sa.select(GameSession)
            .order_by(GameSession.created_at)
            .options(so.selectinload(GameSession.players))
        )
        for session in sessions:
            names = ", ".join(player.name for player in session.players)
            started = f"{session.created_at:%Y-%m-%d %H:%M}"
            print(f"{session.public_id}  {started}  {session.status}  {names}")
        return 0
    keys = services.replace_keys(session_id)
    print(f"New keys for session {session_id}; the old links no longer open it.")
    print(f"Edit link:      /sessions/{session_id}?key={keys.edit}")
    print(f"View-only link: /sessions/{session_id}?key={keys.view}")
    print("Open a link on this app's address, e.g. http://<this machine>:8000/sessions/...")
    print(f"API: Authorization: Bearer {keys.edit}  (read only: Bearer {keys.view})")
    return 0


def _lan_address() -> str | None:
    """Return this machine's address on the local network, for phones to open."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # Connecting a UDP socket sends nothing; it only picks the outgoing interface.
        probe.connect(("192.0.2.1", 9))
        address: str = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("0.") else address


# Waitress worker threads of `scorekeeper serve`; the bench gives the reference app as many.
THREADS = 8


def main(argv: list[str] | None = None) -> int:
    """Run a command: ``backup`` on the database as it is, the others on the upgraded database."""
    parser = argparse.ArgumentParser(prog="scorekeeper", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="upgrade the database and serve the app")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (all by default)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    serve.add_argument("--threads", type=int, default=THREADS, help=f"worker threads ({THREADS})")
    export = commands.add_parser("export", help="write every session as JSON")
    export.add_argument(
        "--output", "-o", default="-", help="file to write (standard output by default)"
    )
    load = commands.add_parser("import", help="read exported sessions into an empty database")
    load.add_argument("file", help="the export file, or - for standard input")
    backup = commands.add_parser(
        "backup", help="copy the SQLite database, also while the server runs"
    )
    backup.add_argument(
        "path", nargs="?", help="file (or folder) to write; instance/backups/ by default"
    )
    keys = commands.add_parser(
        "keys", help="list the sessions, or hand out new keys for one whose keys were lost"
    )
    keys.add_argument("session", nargs="?", help="the session's id (as in its address)")
    argv = sys.argv[1:] if argv is None else argv
    if (
        len(argv) == 2
        and argv[0] == "keys"
        and argv[1].startswith("-")
        and argv[1] not in ("-h", "--help")
    ):
        # Sessions made before new ids stopped starting with "-": not an option, an id.
        argv = ["keys", "--", argv[1]]
    args = parser.parse_args(argv)

    from flask_migrate import upgrade

    from scorekeeper import create_app, services
    from scorekeeper.backup import BackupError, sqlite_file, start_daily_backups
    from scorekeeper.transfer import TransferError

    app = create_app()
    if args.command == "backup":
        # Before the upgrade: a backup copies the database as it is, also one a newer or older
        # version of the app made, and must not change it (or wait for the server's lock).
        try:
            return backup_to(app, args.path)
        except (BackupError, OSError, sqlite3.Error) as error:
            print(f"scorekeeper backup: {error}", file=sys.stderr)
            return 1
    with app.app_context():
        upgrade()
        if args.command in ("export", "import"):
            try:
                if args.command == "export":
                    export_to(args.output)
                else:
                    import_from(args.file)
            except (TransferError, OSError) as error:
                print(f"scorekeeper {args.command}: {error}", file=sys.stderr)
                return 1
            except Exception as error:  # a refusal in one line, never a traceback
                if args.command != "import":
                    raise
                print(f"scorekeeper import: {unforeseen(error)}", file=sys.stderr)
                return 1
            return 0
        if args.command == "keys":
            try:
                return keys_of(args.session)
            except services.NotFoundError:
                print(f"scorekeeper keys: there is no session {args.session}.", file=sys.stderr)
                return 1
    with contextlib.suppress(BackupError):  # PostgreSQL: pg_dump's job (see the README)
        start_daily_backups(sqlite_file(app.config["SQLALCHEMY_DATABASE_URI"]))
    app.config.setdefault("LONG_READS_AT_ONCE", long_reads_at_once(args.threads))
    return _serve(app, args.host, args.port, args.threads)


def long_reads_at_once(threads: int) -> int:
    """Return how many long answers a server of these threads prepares at once: a quarter.

    The other threads are always free for the tables' writes and the quick reads, and each
    long answer running takes a share of their time (``scorekeeper.long_reads``).
    """
    return max(1, threads // 4)


def _serve(app: Flask, host: str, port: int, threads: int) -> int:
    """Serve the app with waitress and say where to open it."""
    from waitress import serve as waitress_serve

    shown = host
    if host in ("0.0.0.0", "::", ""):
        shown = _lan_address() or "127.0.0.1"
    print(f"Scorekeeper is running. Open http://{shown}:{port}/ on a phone", flush=True)
    print(f"(on this machine: http://127.0.0.1:{port}/). Stop with Ctrl+C.", flush=True)
    waitress_serve(app, host=host, port=port, threads=threads, ident=None, **waitress_settings(app))
    return 0


# Seconds a connection may stay idle (no request under way) before waitress closes it. Waitress
# serves at most 100 connections at once; at its default of 120 s (looked at every 30 s) a
# client that opens that many and sends nothing keeps every phone out for minutes. Phones open a
# new connection when they need one, so 30 s costs them nothing; looking every 10 s closes an
# idle connection after 30-40 s.
IDLE_SECONDS = 30
CLEANUP_SECONDS = 10
# Connections waitress serves at once (its default is 100). A phone on a session page keeps its
# connection, asking every 2 s whether anything changed: at 100 the 101st phone, or a table's
# next request, waited until one of them went idle for IDLE_SECONDS. Waitress watches its
# connections with select(), which takes file numbers below 1024: 400 stays well under that.
CONNECTIONS = 400


def waitress_settings(app: Flask) -> dict[str, Any]:
    """Return waitress's settings that follow the app's: proxies, body limit, idle connections.

    Behind PROXIES proxies, ProxyFix (see ``scorekeeper._behind_proxies``) alone reads the
    ``X-Forwarded-*`` headers, as it does under gunicorn; waitress must pass them on untouched
    (by default it deletes them, as from a proxy it was not told to trust). Without proxies
    waitress deletes them, and nothing would believe them anyway.
    """
    settings: dict[str, Any] = {
        "channel_timeout": IDLE_SECONDS,
        "cleanup_interval": CLEANUP_SECONDS,
        "connection_limit": CONNECTIONS,
        "clear_untrusted_proxy_headers": not int(app.config["PROXIES"]),
    }
    limit = app.config.get("MAX_CONTENT_LENGTH")
    if limit:
        # Refuse a longer body (413) from its Content-Length or as it arrives, instead of
        # spooling up to waitress's own 1 GiB to disk before the app refuses it. Waitress
        # refuses a body of its limit itself, the app only a longer one: hence the + 1.
        settings["max_request_body_size"] = int(limit) + 1
    return settings


if __name__ == "__main__":
    sys.exit(main())
