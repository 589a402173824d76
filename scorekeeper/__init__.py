"""The Treppenrommé scorekeeper: a Flask app that records melds, layoffs and settlements."""

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
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
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
        # Where the tables play: the pages show the times of entries in this zone.
        TIMEZONE="Europe/Berlin",
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        if os.environ.get("DATABASE_URL"):
            app.config["SQLALCHEMY_DATABASE_URI"] = _database_url(os.environ["DATABASE_URL"])
        if os.environ.get("SECRET_KEY"):
            app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
        for name in ("PROXIES", "TIMEZONE"):
            if os.environ.get(name):
                app.config[name] = os.environ[name]
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(Path(app.instance_path))
    _behind_proxies(app)
    app.config["BABEL_DEFAULT_TIMEZONE"] = _time_zone(app.config["TIMEZONE"])

    from scorekeeper import database
    from scorekeeper.extensions import babel, csrf, db, migrate
    from scorekeeper.i18n import select_locale

    db.init_app(app)
    babel.init_app(
        app,
        locale_selector=select_locale,
        default_translation_directories=str(Path(__file__).parent / "translations"),
    )
    migrate.init_app(app, db, directory=str(MIGRATIONS), render_as_batch=True)
    csrf.init_app(app)
    with app.app_context():
        database.configure_engine(db.engine)

    from scorekeeper import api, assets, cli, security, web

    assets.register(app)
    security.register(app)

    app.register_blueprint(web.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)
    api.register_error_pages(app)
    cli.register(app)
    return app


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
    if count:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=count, x_proto=count, x_host=count, x_port=0, x_prefix=0
        )


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
