"""The rules core imports nothing but the standard library (checked in a fresh interpreter)."""

import importlib.util
import json
import subprocess
import sys

FORBIDDEN = ["flask", "sqlalchemy", "wtforms", "flask_sqlalchemy", "werkzeug", "jinja2"]
# Where the package lives, found without running its __init__ (which builds the Flask app).
PACKAGE_SPEC = importlib.util.find_spec("scorekeeper")
assert PACKAGE_SPEC is not None
assert PACKAGE_SPEC.submodule_search_locations is not None
PACKAGE_DIRS = list(PACKAGE_SPEC.submodule_search_locations)

# Report the top-level names of every module loaded by the import, as JSON.
REPORT = """
import json, sys
before = set(sys.modules)
{setup}
import scorekeeper.rules
loaded = sorted({{name.split(".")[0] for name in set(sys.modules) - before}})
print(json.dumps(loaded))
"""

# Stand in for the parent package so that only scorekeeper/rules is imported, not the app.
RULES_ALONE = f"""
import types
parent = types.ModuleType("scorekeeper")
parent.__path__ = {PACKAGE_DIRS!r}
sys.modules["scorekeeper"] = parent
"""


def modules_loaded_by_importing_the_rules(setup: str) -> list[str]:
    """Import scorekeeper.rules in a fresh interpreter and return the top-level modules loaded."""
    completed = subprocess.run(
        [sys.executable, "-c", REPORT.format(setup=setup)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(completed.stdout)


def test_the_rules_core_loads_no_web_or_database_library():
    loaded = modules_loaded_by_importing_the_rules(RULES_ALONE)
    assert "scorekeeper" in loaded
    assert [name for name in FORBIDDEN if name in loaded] == []


def test_the_rules_core_loads_nothing_but_the_standard_library():
    loaded = modules_loaded_by_importing_the_rules(RULES_ALONE)
    outside = [
        name for name in loaded if name != "scorekeeper" and name not in sys.stdlib_module_names
    ]
    assert outside == []


def test_importing_the_rules_through_the_package_loads_no_web_or_database_library():
    loaded = modules_loaded_by_importing_the_rules("")
    assert [name for name in FORBIDDEN if name in loaded] == []
