"""The pages' one blueprint: each page area's module registers its routes on it."""

from flask import Blueprint

# Pages: each validates its form, calls one service, and redirects or shows why not.
bp = Blueprint("web", __name__)
