"""The chart of the totals: each player's running total over the games, laid out for SVG.

Drawn on the server (``templates/_chart.html``), with no script: a line per player, each with
its own dashes and marker shape, and a label with the name and the total at the line's end, so
that colour is never the only cue.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scorekeeper import queries

# The drawing's own units; the page scales it to the screen's width (360 px on a phone).
WIDTH = 360
HEIGHT = 220
# Room for the numbers of the axis on the left, the labels on the right, the games below.
LEFT, RIGHT, TOP, BOTTOM = 38, 118, 10, 26
# Labels at the line ends stay this far apart (the font is 12 units high).
LABEL_SPACING = 14
# Names longer than this are cut in the labels (the full name is in the line's title).
LABEL_NAME = 7
# Markers on every point while the games fit; beyond that only at the line's end.
MARKED_GAMES = 30
# Each player's line: its dashes and marker shape, in seating order (at most six players).
DASHES = ("", "7 4", "2 3", "10 3 2 3", "4 2", "1 3")
SHAPES = ("circle", "square", "triangle", "diamond", "cross", "bar")
# The colours of the file alone (dark on light); on a page app.css sets them from the theme.
COLOURS = ("#1f6f43", "#b3261e", "#1d5fb4", "#995200", "#6b3fa0", "#3d3d3a")


@dataclass(frozen=True)
class ChartLine:
    """One player's line: the points drawn, the label at its end and how it is told apart."""

    player_id: int
    name: str
    label: str
    total: int
    index: int
    points: tuple[tuple[float, float], ...]
    markers: tuple[tuple[float, float], ...]
    label_y: float

    @property
    def path(self) -> str:
        """Return the SVG path through the line's points."""
        return " ".join(
            f"{'M' if at == 0 else 'L'}{x:.1f} {y:.1f}" for at, (x, y) in enumerate(self.points)
        )

    @property
    def end(self) -> tuple[float, float]:
        """Return the point where the line ends: the total after the last game."""
        return self.points[-1]

    @property
    def dashes(self) -> str:
        """Return the line's dash pattern (empty for a solid line)."""
        return DASHES[self.index % len(DASHES)]

    @property
    def colour(self) -> str:
        """Return the line's colour where no stylesheet sets it."""
        return COLOURS[self.index % len(COLOURS)]

    @property
    def marker_paths(self) -> str:
        """Return the line's markers as one SVG path: the same shape on every point."""
        return " ".join(_shape(SHAPES[self.index % len(SHAPES)], x, y) for x, y in self.markers)


@dataclass(frozen=True)
class Chart:
    """The running totals of a session laid out in SVG units, with the axes' ticks."""

    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    lines: tuple[ChartLine, ...]
    y_ticks: tuple[tuple[float, int], ...]
    x_ticks: tuple[tuple[float, int], ...]
    zero: float


def chart_of(sheet: queries.Sheet) -> Chart | None:
    """Lay out the running totals of a sheet; None before the first game."""
    if not sheet.rows:
        return None
    games = len(sheet.rows)
    # The game before the first row: 0, or the last game not read (the session page's latest).
    before = sheet.rows[0].number - 1
    series = {
        player_id: [sheet.start.get(player_id, 0), *(row.totals[player_id] for row in sheet.rows)]
        for player_id, _name in sheet.players
    }
    values = [value for totals in series.values() for value in totals]
    low, high, step = _scale(min(values), max(values))
    left, right, top, bottom = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM

    def x_of(game: int) -> float:
        return left + (right - left) * game / games

    def y_of(value: int) -> float:
        return bottom - (bottom - top) * (value - low) / (high - low)

    ends = _spread(
        [y_of(totals[-1]) for totals in series.values()], top + 4, bottom + 4, LABEL_SPACING
    )
    lines = []
    for index, ((player_id, name), end_y) in enumerate(zip(sheet.players, ends, strict=True)):
        points = tuple((x_of(game), y_of(total)) for game, total in enumerate(series[player_id]))
        markers = points[1:] if games <= MARKED_GAMES else points[-1:]
        label = name if len(name) <= LABEL_NAME else name[: LABEL_NAME - 1] + "…"
        total = series[player_id][-1]
        lines.append(ChartLine(player_id, name, label, total, index, points, markers, end_y))
    every = max(1, math.ceil(games / 10))
    x_ticks = tuple((x_of(game), before + game) for game in range(0, games + 1, every))
    y_ticks = tuple((y_of(value), value) for value in range(low, high + 1, step))
    return Chart(WIDTH, HEIGHT, left, right, top, bottom, tuple(lines), y_ticks, x_ticks, y_of(0))


def _scale(low: int, high: int) -> tuple[int, int, int]:
    """Return round bounds around the values and the step between ticks (1, 2 or 5 × 10ⁿ).

    >>> _scale(0, 512)
    (0, 600, 200)
    >>> _scale(-56, 0)
    (-60, 0, 20)
    >>> _scale(0, 0)
    (0, 1, 1)
    """
    low, high = min(low, 0), max(high, 0)
    rough = max((high - low) / 4, 1)
    power = 10 ** math.floor(math.log10(rough))
    step = next(power * factor for factor in (1, 2, 5, 10) if power * factor >= rough)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    if high == low:
        high = low + step
    return int(low), int(high), int(step)


def _spread(wanted: list[float], first: float, last: float, spacing: float) -> list[float]:
    """Move labels apart to at least ``spacing``, as near their lines' ends as there is room.

    >>> _spread([50.0, 52.0, 200.0], 10, 210, 14)
    [44.0, 58.0, 200.0]
    """
    order = sorted(range(len(wanted)), key=lambda at: wanted[at])
    placed = [wanted[at] for at in order]
    # Push down where labels overlap, then up from the bottom, then centre each cluster.
    for at in range(1, len(placed)):
        placed[at] = max(placed[at], placed[at - 1] + spacing)
    placed[-1] = min(placed[-1], last)
    for at in range(len(placed) - 2, -1, -1):
        placed[at] = min(placed[at], placed[at + 1] - spacing)
    placed = _centred(placed, [wanted[at] for at in order], first, last, spacing)
    result = [0.0] * len(wanted)
    for at, y in zip(order, placed, strict=True):
        result[at] = max(first, y)
    return result


def _centred(
    placed: list[float], wanted: list[float], first: float, last: float, spacing: float
) -> list[float]:
    """Shift each run of touching labels so it sits centred on the ends it labels."""
    runs: list[list[int]] = []
    for at in range(len(placed)):
        if runs and placed[at] - placed[runs[-1][-1]] <= spacing + 0.01:
            runs[-1].append(at)
        else:
            runs.append([at])
    result = list(placed)
    for run in runs:
        shift = sum(wanted[at] for at in run) / len(run) - sum(placed[at] for at in run) / len(run)
        shift = max(shift, first - placed[run[0]])
        shift = min(shift, last - placed[run[-1]])
        before = result[run[0] - 1] if run[0] > 0 else -math.inf
        after = placed[run[-1] + 1] if run[-1] + 1 < len(placed) else math.inf
        shift = max(shift, before + spacing - placed[run[0]])
        shift = min(shift, after - spacing - placed[run[-1]])
        for at in run:
            result[at] = placed[at] + shift
    return result


def _shape(shape: str, x: float, y: float) -> str:
    """Return one marker as SVG path data, about 7 units across."""
    r = 3.5
    if shape == "circle":
        return f"M{x - r:.1f} {y:.1f}a{r} {r} 0 1 0 {2 * r} 0a{r} {r} 0 1 0 {-2 * r} 0"
    if shape == "square":
        return f"M{x - r:.1f} {y - r:.1f}h{2 * r}v{2 * r}h{-2 * r}z"
    if shape == "triangle":
        return f"M{x:.1f} {y - r - 0.5:.1f}l{r + 0.5} {2 * r}h{-2 * r - 1}z"
    if shape == "diamond":
        d = r + 0.5
        return f"M{x:.1f} {y - d:.1f}l{d} {d}l{-d} {d}l{-d} {-d}z"
    if shape == "cross":
        return f"M{x - r:.1f} {y - r:.1f}l{2 * r} {2 * r}m0 {-2 * r}l{-2 * r} {2 * r}"
    return f"M{x - r:.1f} {y - 1.5:.1f}h{2 * r}v3h{-2 * r}z"
