"""The pure-Python line-of-sight geometry against shapely (the reference implementation)."""
import math

from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point, Polygon

from dustup_env.rules.kernel.battlefield import inside_length, point_in_ring
from dustup_env.rules.kernel.data import load_scenario

coord = st.floats(min_value=-5, max_value=80, allow_nan=False, allow_infinity=False)
RINGS = [list(Polygon(f["polygon"]).exterior.coords)[:-1] for f in load_scenario("default")["terrain"]]
RINGS.append([(0, 0), (10, 0), (10, 10), (5, 3), (0, 10)])  # a concave one


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(range(len(RINGS))), coord, coord, coord, coord)
def test_inside_length_matches_shapely(k, ax, ay, bx, by):
    ring = RINGS[k]
    if math.hypot(bx - ax, by - ay) < 1e-6:
        return
    if LineString([(ax, ay), (bx, by)]).intersection(Polygon(ring).exterior).length > 1e-6:
        return  # a segment running along an edge: boundary length may go either way (as for points below)
    exp = LineString([(ax, ay), (bx, by)]).intersection(Polygon(ring)).length
    assert abs(inside_length(ring, ax, ay, bx, by) - exp) < 1e-6


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(range(len(RINGS))), coord, coord)
def test_point_in_ring_matches_shapely(k, x, y):
    poly = Polygon(RINGS[k])
    if poly.exterior.distance(Point(x, y)) < 1e-6:
        return  # boundary points may go either way
    assert point_in_ring(RINGS[k], x, y) == poly.contains(Point(x, y))
