"""Pages (placeholder until the page views land)."""

from flask import Blueprint

bp = Blueprint("web", __name__)
