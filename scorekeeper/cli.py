"""Command line: ``scorekeeper serve|export|import|backup|keys``, and flask commands."""

from __future__ import annotations

import argparse
import contextlib
import socket
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from flask import Flask

if TYPE_CHECKING:
    from scorekeeper.serving import TableCertificates


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
    from scorekeeper import queries, services

    if session_id is None:
        for session in queries.every_session():
            names = ", ".join(player.name for player in session.players)
            started = f"{session.created_at:%Y-%m-%d %H:%M}"
            print(f"{session.public_id}  {started}  {session.status}  {names}")
        return 0
    keys = services.replace_keys(session_id)
    print(f"New keys for session {session_id}; the old links no longer open it.")
    print(f"Edit link:      /sessions/{session_id}?key={keys.edit}")
    print(f"View-only link: /sessions/{session_id}?key={keys.view}")
    print("Open a link on this app's address, e.g. https://<this machine>:8000/sessions/...")
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


# Worker threads of `scorekeeper serve` (cheroot's, or waitress's with --http); the bench gives
# the reference app as many.
THREADS = 8


def main(argv: list[str] | None = None) -> int:
    """Run a command: ``backup`` on the database as it is, the others on the upgraded database."""
    parser = argparse.ArgumentParser(prog="scorekeeper", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="upgrade the database and serve the app")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (all by default)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    serve.add_argument("--threads", type=int, default=THREADS, help=f"worker threads ({THREADS})")
    serve.add_argument(
        "--http",
        action="store_true",
        help="serve plain HTTP only, with waitress (behind a proxy that speaks TLS)",
    )
    serve.add_argument(
        "--certificate", metavar="FILE", help="your own certificate (PEM, chain included)"
    )
    serve.add_argument("--key", metavar="FILE", help="the key of --certificate (PEM)")
    serve.add_argument(
        "--name",
        action="append",
        default=[],
        metavar="NAME",
        help="another name phones reach this machine by, for its certificate (repeatable)",
    )
    serve.add_argument(
        "--trust-port",
        type=int,
        metavar="PORT",
        help="plain-HTTP port of the trust page (the port after --port; 0: none)",
    )
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
    if args.command == "serve" and (args.certificate is None) != (args.key is None):
        parser.error("--certificate and --key go together")
    if args.command == "serve" and args.http and args.certificate:
        parser.error("--http serves plain HTTP: it takes no --certificate")

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
    # Both servers run --threads worker threads: a quarter of them may prepare long answers.
    app.config.setdefault("LONG_READS_AT_ONCE", long_reads_at_once(args.threads))
    return _serve(app, args)


def long_reads_at_once(threads: int) -> int:
    """Return how many long answers a server of these threads prepares at once: a quarter.

    The other threads are always free for the tables' writes and the quick reads, and each
    long answer running takes a share of their time (``scorekeeper.long_reads``).
    """
    return max(1, threads // 4)


def _serve(app: Flask, args: argparse.Namespace) -> int:
    """Serve the app as the options say: HTTPS and plain HTTP, or plain HTTP alone."""
    if args.http:
        return _serve_http(app, args.host, args.port, args.threads)
    from scorekeeper.certificates import CertificateError

    try:
        return _serve_https(app, args)
    except (CertificateError, OSError, ValueError) as error:
        print(f"scorekeeper serve: {error}", file=sys.stderr)
        return 1


def _shown(host: str) -> str:
    """Return the address to print for a listening address: the LAN's for all interfaces."""
    if host in ("0.0.0.0", "::", ""):
        return _lan_address() or "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def _serve_http(app: Flask, host: str, port: int, threads: int) -> int:
    """Serve the app over plain HTTP with waitress and say where to open it."""
    from waitress import serve as waitress_serve

    print(f"Scorekeeper is running. Open http://{_shown(host)}:{port}/ on a phone", flush=True)
    print(f"(on this machine: http://127.0.0.1:{port}/). Stop with Ctrl+C.", flush=True)
    waitress_serve(app, host=host, port=port, threads=threads, ident=None, **waitress_settings(app))
    return 0


def _serve_https(app: Flask, args: argparse.Namespace) -> int:
    """Serve HTTPS and plain HTTP on the port, and the trust page on the trust port."""
    from scorekeeper import certificates, serving

    host, port = args.host, args.port
    shown = _shown(host)
    settings = cheroot_settings(app)
    app.config["HTTPS_PORT"] = port
    if args.certificate:
        # The operator's own certificate (a club's name, Let's Encrypt): phones trust it already.
        context = serving.server_context(Path(args.certificate), Path(args.key))
        names = certificates.named(certificates.certificate_in(Path(args.certificate))).said()
        main = serving.cheroot_server_for(app, host, port, args.threads, settings, context)
        main.prepare()
        print(
            f"Scorekeeper is running. Open https://{names[0] if names else shown}:{port}/",
            flush=True,
        )
        print("(plain HTTP answers there too). Stop with Ctrl+C.", flush=True)
        serving.serve_both([main])
        return 0
    table = _table_certificates(app, host, args.name)
    app.config["TABLE_CA"] = str(table.authority.folder / certificates.CA_CERTIFICATE)
    main = serving.cheroot_server_for(app, host, port, args.threads, settings, table.context)
    main.prepare()
    servers = [main]
    trust_address = f"http://{shown}:{port}/trust"
    trust_port = port + 1 if args.trust_port is None else args.trust_port
    if trust_port:
        trust = serving.cheroot_server_for(
            serving.trust_address_only(app), host, trust_port, 2, settings
        )
        try:
            trust.prepare()
            servers.append(trust)
            trust_address = f"http://{shown}:{trust_port}/"
        except OSError as error:
            # The trust page answers on the main port too: a busy trust port stops nothing.
            print(f"Note: port {trust_port} is not free ({error}).", file=sys.stderr, flush=True)
    if not table.authority.permits(shown.strip("[]")):
        print(
            f"Note: {shown} is not a private address; the table's certificate cannot name it. "
            f"Phones can use https://{certificates.host_name()}.local:{port}/ where the network "
            "resolves .local names.",
            file=sys.stderr,
            flush=True,
        )
    print(f"Scorekeeper is running. Open https://{shown}:{port}/ on a phone", flush=True)
    if host in ("0.0.0.0", "::", "", "127.0.0.1", "localhost", "::1"):
        # This machine's browser treats plain HTTP on localhost as secure, trusting or not.
        print(f"(on this machine: http://localhost:{port}/).", flush=True)
    print(
        f"A phone that does not trust this table yet: open {trust_address} "
        "once and follow the steps there.",
        flush=True,
    )
    print(f"The table's certificate, SHA-256: {table.authority.fingerprint()}", flush=True)
    print("Stop with Ctrl+C.", flush=True)
    serving.serve_both(servers)
    return 0


def _table_certificates(app: Flask, host: str, names: list[str]) -> TableCertificates:
    """Return the table's certificates; warn of names left out."""
    from scorekeeper import certificates, serving

    given = list(names)
    if host not in ("0.0.0.0", "::", ""):
        given.append(host)
    authority = certificates.TableAuthority.in_folder(
        Path(app.instance_path) / certificates.FOLDER, [certificates.host_name(), *given]
    )
    wanted = certificates.machine_names(given)
    left_out = set(wanted.said()) - set(authority.permitted(wanted).said())
    for name in sorted(left_out):
        print(
            f"Note: the table's certificate authority may not sign for {name}; phones cannot "
            "use that name (docs/deployment.md: a new authority).",
            file=sys.stderr,
            flush=True,
        )
    return serving.TableCertificates(authority, wanted)


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


# The longest request head cheroot reads (waitress's default): a phone's cookie and headers
# take a few KB.
HEAD_LIMIT = 256 * 1024


def cheroot_settings(app: Flask) -> dict[str, Any]:
    """Return cheroot's settings that follow the app's: body limit, idle connections."""
    limit = app.config.get("MAX_CONTENT_LENGTH")
    return {
        "idle_seconds": IDLE_SECONDS,
        # Refused (413) from Content-Length, or as a chunked body passes it (as waitress: + 1).
        "max_request_body_size": int(limit) + 1 if limit else 0,
        "max_request_header_size": HEAD_LIMIT,
        # Connections kept alive between requests (cheroot's default is 10): the phones watching
        # a table each keep one, and a tap over a kept connection pays no new handshake.
        "connections": CONNECTIONS,
    }


if __name__ == "__main__":
    sys.exit(main())
