"""Recipes that start on Wikipedia (Kiwix) and continue on the map or GitLab."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from urllib.parse import quote

from ..sites import WIKI_BOOK
from ..web import (
    GITLAB_TOKEN,
    Act,
    Recipe,
    View,
    click,
    form_post,
    gl,
    json_req,
    memorize,
    osm,
    scroll,
    typ,
    visit,
    wiki,
)
from .openstreetmap import directions, mhome, osm_search


def build(add: Callable[[Recipe], None]) -> None:
    def wiki_search(pattern: str, *rows: tuple[str, str]) -> View:
        return View(
            f"__WIKIPEDIA__/search?content={WIKI_BOOK}&pattern={quote(pattern)}",
            f"Search: {pattern}",
            "search",
            query=pattern,
            rows=rows,
        )

    wiki_home = View(
        f"__WIKIPEDIA__/{WIKI_BOOK}/A/User:The_other_Kiwix_guy/Landing",
        "Wikipedia",
        "article",
        heading="Welcome to Wikipedia",
        text="The free encyclopedia that anyone can edit.",
    )
    scimago = wiki(
        "SCImago_Institutions_Rankings",
        rows=(("Type", "Ranking"), ("Publisher", "SCImago Lab"), ("Launched", "2009")),
        text="The SCImago Institutions Rankings (SIR) is a classification of academic and research-related "
        "institutions ranked by a composite indicator of research performance, innovation output and "
        "societal impact.\nIn the 2019 edition the top institutions worldwide were: 1. Chinese Academy "
        "of Sciences, 2. Harvard University, 3. Massachusetts Institute of Technology, 4. Max Planck "
        "Society, 5. Stanford University.",
    )
    add(
        Recipe(
            97,
            mhome,
            (
                visit(wiki_home, why="First I need the 2019 SCImago ranking from the wiki."),
                typ(
                    "Search 'Wikipedia'",
                    "SCImago Institutions Rankings",
                    wiki_search(
                        "SCImago Institutions Rankings",
                        (
                            "SCImago Institutions Rankings",
                            "The SCImago Institutions Rankings (SIR) is a classification of institutions...",
                        ),
                    ),
                    why="Searching the wiki for the ranking.",
                ),
                click("SCImago Institutions Rankings", scimago, why="Opening the article."),
                scroll(why="The 2019 edition lists MIT in third place."),
                memorize(
                    "3rd in SCImago 2019: Massachusetts Institute of Technology",
                    why="I'll remember that MIT is third in 2019.",
                ),
                visit(mhome, why="Now the driving distance on the map."),
                *directions(
                    "Carnegie Mellon University",
                    "Massachusetts Institute of Technology",
                    "Car (OSRM)",
                    "car",
                    "-79.9427192,40.4441897;-71.0921641,42.3582529",
                    "Distance: 914km. Time: 9:03.",
                    (
                        ("1.", "Head east on Forbes Avenue"),
                        ("2.", "Take I-76 E / Pennsylvania Turnpike"),
                        ("3.", "Take I-90 E / Massachusetts Turnpike"),
                    ),
                    skip_mode=True,
                ),
            ),
            answer=["914km"],
            wrong_answer=["925km"],
            variants={
                "wrong": (
                    visit(wiki_home, why="First I need the 2019 SCImago ranking from the wiki."),
                    visit(scimago, why="Opening the SCImago article directly."),
                    visit(mhome, why="Harvard is near the top; I'll get the driving distance to it."),
                    *directions(
                        "Carnegie Mellon University",
                        "Harvard University",
                        "Car (OSRM)",
                        "car",
                        "-79.9427192,40.4441897;-71.1166601,42.3770029",
                        "Distance: 925km. Time: 9:10.",
                        (("1.", "Head east on Forbes Avenue"),),
                        skip_mode=True,
                    ),
                )
            },
            finding="MIT is third in the 2019 SCImago ranking; the driving distance from CMU is 914 km.",
            wrong_finding="The driving distance from CMU to Harvard University is 925 km.",
        )
    )
    film = wiki(
        "A_Beautiful_Day_in_the_Neighborhood",
        rows=(
            ("Directed by", "Marielle Heller"),
            ("Release date", "November 22, 2019"),
            ("Country", "United States"),
        ),
        text="A Beautiful Day in the Neighborhood is a 2019 American drama film about Fred Rogers.\n"
        "Principal photography began in September 2018 in Pittsburgh, Pennsylvania, where the production "
        "recreated the set of Mister Rogers' Neighborhood at WQED.",
    )
    pgh = ("Pittsburgh, Allegheny County, Pennsylvania, United States", "City")
    add(
        Recipe(
            424,
            mhome,
            (
                visit(wiki_home, why="I'll look the film up on the wiki first."),
                typ(
                    "Search 'Wikipedia'",
                    "A Beautiful Day in the Neighborhood",
                    wiki_search(
                        "A Beautiful Day in the Neighborhood",
                        (
                            "A Beautiful Day in the Neighborhood",
                            "2019 American drama film directed by Marielle Heller",
                        ),
                    ),
                    why="Searching for the film.",
                ),
                click("A Beautiful Day in the Neighborhood", film, why="Opening the article."),
                scroll(why="The production section says it was filmed in Pittsburgh."),
                visit(mhome, why="Now I'll find Pittsburgh on the map."),
                typ(
                    "Search",
                    "Pittsburgh",
                    osm_search("Pittsburgh", pgh, ("Pittsburgh International Airport", "Aerodrome")),
                    why="Searching for Pittsburgh.",
                ),
                click(
                    pgh[0],
                    osm(
                        "/relation/188553",
                        "Relation: Pittsburgh (188553)",
                        "feature",
                        heading="Pittsburgh",
                        rows=(
                            ("admin_level", "8"),
                            ("boundary", "administrative"),
                            ("name", "Pittsburgh"),
                            ("population", "302971"),
                        ),
                    ),
                    why="The city result is the administrative boundary of Pittsburgh.",
                ),
            ),
            finding="The map page of Pittsburgh is open.",
        )
    )
    bridges = wiki(
        "List_of_longest_bridges",
        text="This list of longest bridges ranks bridges by total length.\nThe Lake Pontchartrain "
        "Causeway in southern Louisiana, at 38.35 km, is the longest bridge in the Western Hemisphere "
        "and the longest continuous bridge over water in the world.",
    )
    causeway = ("Lake Pontchartrain Causeway, St. Tammany Parish, Louisiana, United States", "Bridge")
    southbound = ("Lake Pontchartrain Causeway (southbound), Louisiana, United States", "Motorway")
    to_bridge = (
        visit(wiki_home, why="I'll check the wiki for the longest bridge in the Western hemisphere."),
        typ(
            "Search 'Wikipedia'",
            "longest bridges",
            wiki_search(
                "longest bridges",
                ("List of longest bridges", "This list of longest bridges ranks..."),
                ("List of longest suspension bridge spans", "Suspension bridges ranked by main span"),
            ),
            why="Searching for the list of longest bridges.",
        ),
        click("List of longest bridges", bridges, why="Opening the list."),
        memorize(
            "Longest bridge in the Western Hemisphere: Lake Pontchartrain Causeway",
            why="It is the Lake Pontchartrain Causeway.",
        ),
        visit(mhome, why="Now the map."),
        typ(
            "Search",
            "Lake Pontchartrain Causeway",
            osm_search("Lake Pontchartrain Causeway", causeway, southbound),
            why="Searching for the causeway.",
        ),
    )
    add(
        Recipe(
            425,
            mhome,
            (
                *to_bridge,
                click(
                    causeway[0],
                    osm(
                        "/relation/5475586",
                        "Relation: Lake Pontchartrain Causeway (5475586)",
                        "feature",
                        heading="Lake Pontchartrain Causeway",
                        rows=(("type", "bridge"), ("bridge:structure", "trestle")),
                    ),
                    why="The first result is the bridge relation.",
                ),
            ),
            variants={
                "wrong": (
                    *to_bridge,
                    click(
                        southbound[0],
                        osm(
                            "/way/25866573",
                            "Way: Lake Pontchartrain Causeway (25866573)",
                            "feature",
                            heading="Lake Pontchartrain Causeway",
                            rows=(("highway", "primary"), ("oneway", "yes")),
                        ),
                        why="I'll open the southbound roadway of the causeway.",
                    ),
                )
            },
            finding="The map page of the Lake Pontchartrain Causeway is open.",
        )
    )
    films = [
        "Following",
        "Memento",
        "Insomnia",
        "Batman Begins",
        "The Prestige",
        "The Dark Knight",
        "Inception",
        "The Dark Knight Rises",
        "Interstellar",
        "Dunkirk",
        "Tenet",
        "Oppenheimer",
    ]
    nolan = wiki(
        "Christopher_Nolan",
        rows=(("Born", "30 July 1970"), ("Occupation", "Filmmaker")),
        text="Christopher Edward Nolan is a British-American filmmaker.\nFeature films: Following (1998), "
        "Memento (2000), Insomnia (2002), Batman Begins (2005), The Prestige (2006), The Dark Knight "
        "(2008), Inception (2010), The Dark Knight Rises (2012), Interstellar (2014), Dunkirk (2017), "
        "Tenet (2020) and Oppenheimer (2023).\nShort films: Doodlebug (1997), Quay (2015).",
    )
    new_project = gl(
        "/projects/new",
        "New Project",
        "form",
        heading="Create blank project",
        fields=(("Project name", ""), ("Project slug", ""), ("Visibility Level", "Private")),
        buttons=("Create project", "Cancel"),
    )
    empty_repo = gl(
        "/byteblaze/nolan_honest_fans",
        "byteblaze / nolan_honest_fans",
        "project",
        banner="Project 'nolan_honest_fans' was successfully created.",
        text="The repository for this project is empty",
        buttons=("Web IDE", "Add README"),
        rows=(("Name", "Last commit", "Last update"),),
    )
    ide = gl(
        "/-/ide/project/byteblaze/nolan_honest_fans/edit/main/-/",
        "Web IDE · byteblaze / nolan_honest_fans",
        "ide",
        rows=(("New file",), ("New directory",)),
        buttons=("Create commit...",),
    )

    def readme(titles: Sequence[str]) -> tuple[Act, ...]:
        content = "# nolan_honest_fans\n\n" + "\n".join(f"- {t}" for t in titles)
        editor = replace(ide, rows=(("README.md",),))
        body = {
            "branch": "main",
            "commit_message": "Add README.md",
            "actions": [{"action": "create", "file_path": "README.md", "content": content}],
            "start_sha": "",
            "force": False,
        }
        return (
            visit(nolan, why="I need Nolan's theatrical feature films from the wiki."),
            scroll(why="The filmography lists the feature films; the short films must be left out."),
            memorize("Features: " + ", ".join(films), why="I'll keep the list of features."),
            visit(new_project, why="Now I'll create the repository in GitLab."),
            typ("Project name", "nolan_honest_fans", enter=False, why="Naming the project."),
            click(
                "Create project",
                empty_repo,
                why="Creating it.",
                reqs=(
                    form_post(
                        "__GITLAB__/projects",
                        {
                            "project[name]": "nolan_honest_fans",
                            "project[namespace_id]": "2505",
                            "project[path]": "nolan_honest_fans",
                            "project[visibility_level]": "0",
                            "project[initialize_with_readme]": "0",
                            "authenticity_token": GITLAB_TOKEN,
                        },
                        "__GITLAB__/byteblaze/nolan_honest_fans",
                    ),
                ),
            ),
            click("Web IDE", ide, why="The task asks for the Web IDE."),
            click("New file", editor, nav=False, why="Creating README.md."),
            typ("editor", content, enter=False, why="Writing the heading and the list of films."),
            click(
                "Create commit...",
                replace(editor, banner="Your changes have been committed."),
                nav=False,
                why="Committing to main.",
                reqs=(
                    json_req(
                        "POST",
                        "__GITLAB__/api/v4/projects/byteblaze%2Fnolan_honest_fans/repository/commits",
                        body,
                        status=201,
                        kind="fetch",
                        response={"id": "3f9c2e1a7b", "short_id": "3f9c2e1a", "title": "Add README.md"},
                    ),
                ),
            ),
        )

    add(
        Recipe(
            556,
            gl("/", "Projects · Dashboard", "list", heading="Projects"),
            readme(films),
            variants={"wrong": readme(["Doodlebug", *films])},
            finding="The repository nolan_honest_fans has a README listing Nolan's theatrical feature films.",
        )
    )
