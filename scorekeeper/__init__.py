"""The rummy scorekeeper: a Flask app that records melds, layoffs and settlements."""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

PROJECT_ROOT = Path(__file__).resolve().parent.parent
MIGRATIONS = PROJECT_ROOT / "migrations"
# The message catalogues; ``pybabel compile -d`` this folder makes the German one readable.
TRANSLATIONS = Path(__file__).resolve().parent / "translations"


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Create the app: defaults, then instance/config.py, then the environment, then tests."""
    # Flask is imported here so that importing scorekeeper.rules loads no web framework.
    from flask import Flask

    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder="static",
    )
    _private_folder(Path(app.instance_path))
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///" + str(Path(app.instance_path) / "scorekeeper.sqlite3"),
        MAX_CONTENT_LENGTH=64 * 1024,
        JSON_SORT_KEYS=False,
        # The cookie holds the keys of the sessions this browser may open: it lasts as long as
        # browsers allow, and no other site's request carries it.
        PERMANENT_SESSION_LIFETIME=timedelta(days=400),
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        # How many reverse proxies stand in front of the app (see _behind_proxies).
        PROXIES=0,
        # The host names the app answers to (Flask's setting); None answers to any.
        TRUSTED_HOSTS=None,
        # Where the tables play: the pages show the times of entries in this zone.
        TIMEZONE="Europe/Berlin",
        # How many sessions one client address may start (scorekeeper.limits), or "off".
        SESSION_LIMIT="30 per minute",
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        if os.environ.get("DATABASE_URL"):
            app.config["SQLALCHEMY_DATABASE_URI"] = _database_url(os.environ["DATABASE_URL"])
        if os.environ.get("SECRET_KEY"):
            app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
        for name in ("PROXIES", "TIMEZONE", "SESSION_LIMIT", "TRUSTED_HOSTS"):
            if os.environ.get(name):
                app.config[name] = os.environ[name]
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(Path(app.instance_path))
    from scorekeeper import long_reads

    # Behind ProxyFix, which _behind_proxies puts in front: it sees the address forwarded.
    long_reads.repeat_refusals(app)
    _behind_proxies(app)
    app.config["TRUSTED_HOSTS"] = _trusted_hosts(app.config["TRUSTED_HOSTS"])
    app.config["BABEL_DEFAULT_TIMEZONE"] = _time_zone(app.config["TIMEZONE"])

    from scorekeeper import database
    from scorekeeper.extensions import babel, csrf, db, migrate
    from scorekeeper.i18n import select_locale, template_words

    db.init_app(app)
    babel.init_app(
        app,
        locale_selector=select_locale,
        default_translation_directories=str(TRANSLATIONS),
    )
    _warn_uncompiled_catalogues(app)
    app.context_processor(template_words)
    migrate.init_app(app, db, directory=str(MIGRATIONS), render_as_batch=True)
    csrf.init_app(app)
    with app.app_context():
        database.configure_engine(db.engine)

    from scorekeeper import api, assets, cli, limits, long_reads, security, web

    assets.register(app)
    security.register(app)
    _secure_cookie_over_https(app)

    app.register_blueprint(web.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)
    # Reading typed cards writes nothing: the finish page, a GET form, holds no form token.
    csrf.exempt(web.entries.read_cards)
    api.register_error_pages(app)
    limits.limit_session_starts(app)
    long_reads.register(app)
    cli.register(app)
    return app


def _warn_uncompiled_catalogues(app: Flask) -> None:
    """Log a warning when the German catalogue is not compiled, with the command that does it.

    Without the compiled ``messages.mo`` (``pip install`` alone does not make it) every page
    and error would be in English on a German phone, with no word why.
    """
    setting = app.config.get("BABEL_TRANSLATION_DIRECTORIES") or str(TRANSLATIONS)
    folders = [Path(app.root_path, folder) for folder in str(setting).split(";")]
    if any((folder / "de" / "LC_MESSAGES" / "messages.mo").is_file() for folder in folders):
        return
    app.logger.warning(
        "The German message catalogue is not compiled: every page and error will be in"
        " English. Compile it with: pybabel compile -d %s",
        folders[0],
    )


def _behind_proxies(app: Flask) -> None:
    """Believe the client address, scheme and host that the configured number of proxies send.

    Behind a proxy that ends HTTPS, the share links and their QR codes must name the address
    the phones use, not the app's own ``http://127.0.0.1``. Without a proxy the headers could
    be made up by anyone, so they are only believed when PROXIES says how many to trust; a
    forwarded prefix or port is never believed (proxies often pass the client's own through).
    """
    setting = str(app.config["PROXIES"]).strip()
    if not setting.isdecimal() or not setting.isascii():
        raise ValueError(
            f"PROXIES must be 0 or the number of reverse proxies in front, not {setting!r}"
        )
    count = int(setting)
    # Read as a number from here on: `scorekeeper serve` tells waitress to pass the headers on.
    app.config["PROXIES"] = count
    if count:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=count, x_proto=count, x_host=count, x_port=0, x_prefix=0
        )


def _trusted_hosts(setting: object) -> list[str] | None:
    """Return Flask's TRUSTED_HOSTS as a list: the environment gives the names comma-separated.

    With PROXIES the name checked is the one the proxy forwarded (the public name).
    """
    if setting is None:
        return None
    if isinstance(setting, str):
        names = setting.split(",")
    elif isinstance(setting, list | tuple | set | frozenset):
        names = [str(name) for name in setting]
    else:
        raise ValueError(
            f"TRUSTED_HOSTS must be host names separated by commas, or a list, not {setting!r}"
        )
    hosts = [name.strip() for name in names if name.strip()]
    return hosts or None


def _secure_cookie_over_https(app: Flask) -> None:
    """Mark the cookie ``Secure`` on every answer to a request that came over HTTPS.

    Behind a proxy that ends HTTPS (PROXIES), ``request.is_secure`` is what the proxy saw, so
    the cookie holding a phone's keys never travels in plain HTTP without a setting of its own.
    ``SESSION_COOKIE_SECURE = True`` still makes it Secure on every answer. Decided per request:
    the app's config is shared by all threads and must not change while serving.
    """
    from flask import has_request_context, request

    interface = app.session_interface
    configured = interface.get_cookie_secure

    def get_cookie_secure(app: Flask) -> bool:
        return configured(app) or (has_request_context() and request.is_secure)

    interface.get_cookie_secure = get_cookie_secure  # type: ignore[method-assign]


def _private_folder(folder: Path) -> None:
    """Make the instance folder readable by its owner only (0700).

    It holds the secret key and the SQLite database. A folder made by an older version is
    closed too, so that the files already in it are protected; a folder this process may not
    change (another owner's) is left as it is.
    """
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        if folder.stat().st_mode & 0o077:
            folder.chmod(0o700)
    except OSError:
        pass


def _time_zone(name: str) -> str:
    """Return a time zone name that Flask-Babel knows, or say plainly that it is none."""
    import pytz

    try:
        return str(pytz.timezone(str(name)).zone)
    except pytz.UnknownTimeZoneError:
        raise ValueError(
            f"TIMEZONE must be a time zone name such as Europe/Berlin or Europe/Vienna, "
            f"not {name!r}"
        ) from None


def _database_url(url: str) -> str:
    """Let a plain ``postgres://`` or ``postgresql://`` URL use the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _instance_secret(instance: Path) -> str:
    """Return the secret key kept in the instance folder, making one on first start."""
    path = instance / "secret_key"
    if not path.exists():
        # Create the file exclusively so two processes starting at once agree on one key.
        try:
            with path.open("x", encoding="utf-8") as file:
                file.write(secrets.token_hex(32))
            path.chmod(0o600)
        except FileExistsError:
            pass
    return path.read_text(encoding="utf-8").strip()
