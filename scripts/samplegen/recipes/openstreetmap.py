"""Recipes on the map (OpenStreetMap): place search and directions.

`mhome`, `osm_search` and `directions` are shared with the Wikipedia recipes, which end on the map.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

from ..web import GITLAB_TOKEN, Act, Recipe, Req, Rows, View, click, osm, scroll, typ

mhome = osm(
    "/",
    "",
    "home",
    text="Welcome to OpenStreetMap! OpenStreetMap is a map of the world, created by "
    "people like you and free to use under an open license.",
)


def osm_search(query: str, *rows: tuple[str, ...]) -> View:
    return osm(
        f"/search?query={quote(query)}",
        "",
        "search",
        heading="Search Results",
        query=query,
        rows=rows or (("No results found",),),
    )


def directions(
    frm: str,
    to: str,
    mode: str,
    profile: str,
    coords: str,
    summary: str,
    steps: Rows,
    *,
    skip_mode: bool = False,
) -> tuple[Act, ...]:
    engine = {"car": "fossgis_osrm_car", "foot": "fossgis_osrm_foot"}[profile]
    empty = osm(
        "/directions",
        "Directions",
        "directions",
        fields=(("From", ""), ("To", ""), ("Mode", "Car (OSRM)")),
    )
    a, b = coords.split(";")
    route = f"{a.split(',')[1]}%2C{a.split(',')[0]}%3B{b.split(',')[1]}%2C{b.split(',')[0]}"
    done = osm(
        f"/directions?engine={engine}&route={route}",
        "Directions",
        "directions",
        heading="Directions",
        fields=(("From", frm), ("To", to), ("Mode", mode)),
        text=summary,
        rows=steps,
    )
    service = {"car": "routed-car/route/v1/driving", "foot": "routed-foot/route/v1/foot"}[profile]
    acts = [
        click("Directions", empty, nav=False, why="I'll open the directions panel."),
        typ("From", frm, enter=False, why=f"Start: {frm}."),
        typ("To", to, enter=False, why=f"Destination: {to}."),
    ]
    if not skip_mode:
        acts.append(typ("Mode", mode, enter=False, why=f"The route should use {mode}."))
    acts.append(
        click(
            "Go",
            done,
            nav=False,
            why="Computing the route.",
            reqs=(
                Req(
                    "GET",
                    f"__MAP__/{service}/{coords}?overview=false&geometries=polyline&steps=true",
                    kind="fetch",
                    response={"code": "Ok", "routes": [{"distance": 0, "duration": 0}]},
                ),
            ),
        )
    )
    return tuple(acts)


def build(add: Callable[[Recipe], None]) -> None:
    cmu = (
        (
            "Carnegie Mellon University, Forbes Avenue, Squirrel Hill North, Pittsburgh, Allegheny County, "
            "15213, United States"
        ),
        "University",
    )
    cmu_search = osm_search(
        "Carnegie Mellon University",
        cmu,
        ("Carnegie Mellon University Athletics, Pittsburgh", "Sports Centre"),
    )
    cmu_page = osm(
        "/relation/2279034",
        "Relation: Carnegie Mellon University (2279034)",
        "feature",
        heading="Carnegie Mellon University",
        rows=(
            ("addr:city", "Pittsburgh"),
            ("addr:housenumber", "5000"),
            ("addr:postcode", "15213"),
            ("addr:state", "PA"),
            ("addr:street", "Forbes Avenue"),
            ("amenity", "university"),
            ("name", "Carnegie Mellon University"),
            ("wikidata", "Q190080"),
        ),
    )
    find_cmu = (
        typ(
            "Search",
            "Carnegie Mellon University",
            cmu_search,
            why="I'll search the map for Carnegie Mellon.",
            reqs=(
                Req(
                    "POST",
                    "__MAP__/geocoder/search_osm_nominatim?query=Carnegie+Mellon+University",
                    {"authenticity_token": GITLAB_TOKEN},
                ),
            ),
        ),
        click(cmu[0], cmu_page, why="The first result is the university itself."),
    )
    add(
        Recipe(
            70,
            mhome,
            (*find_cmu, scroll(why="The address tags include the postcode.")),
            answer=["15213"],
            wrong_answer=["15217"],
            finding="Carnegie Mellon University's zip code is 15213.",
        )
    )
    add(Recipe(370, mhome, find_cmu, finding="The map page of Carnegie Mellon University is open."))

    add(
        Recipe(
            151,
            mhome,
            directions(
                "Carnegie Mellon University",
                "University of Pittsburgh",
                "Car (OSRM)",
                "car",
                "-79.9427192,40.4441897;-79.9532423,40.4443508",
                "Distance: 1.3km. Time: 0:04.",
                (
                    ("1.", "Start on Forbes Avenue"),
                    ("2.", "Continue onto Forbes Avenue"),
                    ("3.", "Turn right onto Bigelow Boulevard"),
                ),
                skip_mode=True,
            ),
            answer=["00:04:00"],
            wrong_answer=["00:06:00"],
            finding="By car it takes about 4 minutes (0:04).",
        )
    )
    add(
        Recipe(
            363,
            mhome,
            directions(
                "Carnegie Mellon University",
                "Carnegie Music Hall",
                "Foot (OSRM)",
                "foot",
                "-79.9427192,40.4441897;-79.9510465,40.4437747",
                "Distance: 748m. Time: 0:10.",
                (("1.", "Head west on Forbes Avenue"), ("2.", "Turn right onto Schenley Drive")),
            ),
            answer=["748m"],
            wrong_answer=["0.9km"],
            finding="Walking, the distance is 748 m.",
        )
    )
    cafe = ("Carnegie Mellon Cafe, 5032 Forbes Avenue, Pittsburgh, 15213, United States", "Cafe")
    cafe_page = osm(
        "/node/5178402620",
        "Node: Carnegie Mellon Café (5178402620)",
        "feature",
        heading="Carnegie Mellon Café",
        rows=(
            ("amenity", "cafe"),
            ("name", "Carnegie Mellon Café"),
            ("opening_hours", "Mo-Fr 08:00-16:00"),
            ("addr:street", "Forbes Avenue"),
        ),
    )
    add(
        Recipe(
            253,
            mhome,
            (
                typ(
                    "Search",
                    "Carnegie Mellon Café",
                    osm_search("Carnegie Mellon Café", cafe),
                    why="I'll search for the café.",
                ),
                click(cafe[0], cafe_page, why="Opening the café's map page to look for a phone tag."),
            ),
            answer=None,
            wrong_answer=["4122682000"],
            finding="The Carnegie Mellon Café has no phone number on the map; its tags list only name, hours "
            "and address.",
        )
    )
    hotels = osm_search(
        "hotels near Carnegie Mellon University",
        ("Hilton Garden Inn Pittsburgh University Place", "Hotel"),
        ("Residence Inn Pittsburgh Oakland/University Place", "Hotel"),
        ("The Oaklander Hotel", "Hotel"),
        ("Wyndham Pittsburgh University Center", "Hotel"),
    )
    add(
        Recipe(
            379,
            mhome,
            (
                typ(
                    "Search",
                    "hotels near Carnegie Mellon University",
                    hotels,
                    why="I'll search for hotels near CMU.",
                ),
            ),
            wrong_answer=[
                "Hilton Garden Inn Pittsburgh University Place",
                "The Oaklander Hotel",
                "Wyndham Pittsburgh University Center",
            ],
            finding="The map shows hotels near Carnegie Mellon University.",
        )
    )
