"""Extension singletons, bound to the app in create_app()."""

from __future__ import annotations

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask_babel import Babel
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect

# Named constraints, so that migrations can refer to them (and SQLite batch mode can drop them).
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(so.DeclarativeBase):
    """Declarative base with the constraint naming convention."""

    metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)


# Objects stay loaded after a commit: a use case commits, then the answer is built from them.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()
csrf = CSRFProtect()
babel = Babel()
