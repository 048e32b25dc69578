"""Recipes on GitLab: projects, tokens, to-dos, merge requests, issues, forks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..web import Recipe, View, back, click, gl, json_req, scroll, typ


def build(add: Callable[[Recipe], None]) -> None:
    ghome = gl(
        "/",
        "Projects · Dashboard",
        "list",
        heading="Projects",
        buttons=("Yours", "Personal", "Starred"),
        rows=(
            ("a11yproject / a11yproject.com", "Maintainer", "updated 1 year ago"),
            ("primer / design", "Developer", "updated 1 year ago"),
            ("byteblaze / gimmiethat.space", "Owner", "updated 1 year ago"),
            ("yjlou / 2019-nCov", "Developer", "updated 2 years ago"),
            ("byteblaze / millennials-to-snake-people", "Owner", "updated 2 years ago"),
        ),
    )
    personal_rows = (
        ("byteblaze / a11y-webring.club", "1 star", "updated 1 year ago"),
        ("byteblaze / millennials-to-snake-people", "4 stars", "updated 2 years ago"),
        ("byteblaze / dotfiles", "0 stars", "updated 2 years ago"),
        ("byteblaze / a11y-syntax-highlighting", "4 stars", "updated 2 years ago"),
        ("byteblaze / cloud-to-butt", "2 stars", "updated 3 years ago"),
    )
    personal = gl(
        "/dashboard/projects/personal",
        "Personal · Projects · Dashboard",
        "list",
        heading="Projects",
        buttons=("Yours", "Personal", "Starred", "Most stars"),
        rows=personal_rows,
        text="5 projects",
    )
    by_stars = replace(
        personal,
        url="__GITLAB__/dashboard/projects/personal?sort=stars_desc",
        rows=tuple(sorted(personal_rows, key=lambda r: -int(r[1].split()[0]))),
    )

    def project(slug: str, pid: int, stars: int) -> View:
        return gl(
            f"/byteblaze/{slug}",
            f"byteblaze / {slug}",
            "project",
            text=f"Project ID: {pid}",
            buttons=(f"Star {stars}", "Fork 0", "Clone"),
        )

    to_stars = (
        click("Personal", personal, why="I only need my personal projects."),
        click("Most stars", by_stars, why="Sorting them by number of stars."),
    )
    add(
        Recipe(
            169,
            ghome,
            (
                *to_stars,
                click(
                    "byteblaze / millennials-to-snake-people",
                    project("millennials-to-snake-people", 187, 4),
                    why="Two projects are tied with 4 stars; I need their IDs.",
                ),
                back(by_stars, why="Project ID 187. Now the other one."),
                click(
                    "byteblaze / a11y-syntax-highlighting",
                    project("a11y-syntax-highlighting", 183, 4),
                    why="Opening the second project with 4 stars.",
                ),
            ),
            answer=[187, 183],
            wrong_answer=[187],
            finding="The most starred personal projects (4 stars each) have IDs 187 and 183.",
            wrong_finding="My most starred personal project has ID 187.",
        )
    )
    add(
        Recipe(
            168,
            ghome,
            (*to_stars, scroll(why="The highest star count among my personal projects is 4.")),
            answer=None,
            wrong_answer=[187],
            finding="None of my personal projects has more than 100 stars; the most starred has 4.",
            wrong_finding="The project with the most stars is 187.",
        )
    )
    profile = gl(
        "/-/profile",
        "Edit Profile · User Settings",
        "settings",
        heading="Edit Profile",
        fields=(("Full name", "Byte Blaze"), ("Email", "byteblaze@gmail.com")),
        buttons=("Access Tokens", "Preferences", "Update profile settings"),
    )
    tokens = gl(
        "/-/profile/personal_access_tokens",
        "Personal Access Tokens · User Settings",
        "settings",
        heading="Personal Access Tokens",
        text="Your feed token authenticates you when your RSS reader loads a personalized RSS feed.",
        fields=(("Feed token", "TMN_bBn9Z48qVbUFZV45"), ("Incoming email token", "c2f1b7e4d0a98e3f")),
        buttons=("Reset this token",),
    )
    add(
        Recipe(
            259,
            ghome,
            (
                click(
                    "byteblaze",
                    replace(
                        ghome,
                        menu=(
                            "Byte Blaze @byteblaze",
                            "Set status",
                            "Edit profile",
                            "Preferences",
                            "Sign out",
                        ),
                    ),
                    nav=False,
                    why="Tokens are in the user settings; I'll open the avatar menu.",
                ),
                click("Edit profile", profile, why="Edit profile leads to the user settings."),
                click("Access Tokens", tokens, why="The feed token is shown on the Access Tokens page."),
            ),
            answer=["TMN_bBn9Z48qVbUFZV45"],
            wrong_answer=["c2f1b7e4d0a98e3f"],
            finding="My RSS feed token is TMN_bBn9Z48qVbUFZV45.",
        )
    )
    todos = gl(
        "/dashboard/todos",
        "To-Do List",
        "list",
        heading="To-Do List",
        buttons=("To Do 5", "Done"),
        rows=(
            ("Byte Blaze mentioned you on issue #8 'Add RSS link'", "a11y-webring.club", "1 year ago"),
            ("Review requested on !23 'Fix focus outline'", "a11yproject.com", "1 year ago"),
        ),
    )
    add(
        Recipe(
            44,
            ghome,
            (click("To-Do List", todos, why="The To-Do List link is in the top bar."),),
            finding="My To-Do List is open.",
        )
    )
    mr_menu = replace(ghome, menu=("Merge requests", "Assigned to you 4", "Review requests for you 2"))

    def mr_list(param: str) -> View:
        return gl(
            f"/dashboard/merge_requests?{param}=byteblaze",
            "Merge requests",
            "list",
            heading="Merge requests",
            buttons=("Open 4", "Merged", "Closed", "All"),
        )

    add(
        Recipe(
            156,
            ghome,
            (
                click("Merge requests", mr_menu, nav=False, why="The top bar has a Merge requests menu."),
                click(
                    "Assigned to you 4", mr_list("assignee_username"), why="I want the ones assigned to me."
                ),
            ),
            variants={
                "wrong": (
                    click("Merge requests", mr_menu, nav=False, why="The top bar has a Merge requests menu."),
                    click(
                        "Review requests for you 2",
                        mr_list("reviewer_username"),
                        why="These are the merge requests waiting for me.",
                    ),
                )
            },
            finding="The merge requests assigned to me are listed.",
        )
    )
    a11y = gl(
        "/a11yproject/a11yproject.com",
        "a11yproject / a11yproject.com",
        "project",
        text="The A11Y Project is a community-driven effort to make digital accessibility easier.",
        buttons=("Star 21", "Fork 0", "Clone"),
    )
    issue_rows = (
        ("Broken link on the contributors page", "#1523", "Eric Bailey", "bug"),
        ("Add dark mode toggle to the header", "#1519", "Scott O'Hara", "enhancement"),
        ("Search results do not announce count to screen readers", "#1510", "Sarah Miller", "bug"),
        ("Improve focus styles for keyboard users", "#1498", "Alex Thomas", "help wanted"),
    )
    issues_all = gl(
        "/a11yproject/a11yproject.com/-/issues",
        "Issues · a11yproject / a11yproject.com",
        "list",
        heading="Issues",
        buttons=("Open 48", "Closed", "All"),
        rows=issue_rows,
    )
    label_url = "/a11yproject/a11yproject.com/-/issues/?state=opened&label_name%5B%5D=bug"
    issues_bug = gl(
        label_url,
        "Issues · a11yproject / a11yproject.com",
        "list",
        heading="Issues",
        buttons=("Open 12", "Closed", "All"),
        query="Label = bug",
        rows=tuple(r for r in issue_rows if r[3] == "bug"),
    )
    search_url = "/a11yproject/a11yproject.com/-/issues/?search=bug&state=opened"
    issues_search = gl(
        search_url,
        "Issues · a11yproject / a11yproject.com",
        "list",
        heading="Issues",
        buttons=("Open 19", "Closed", "All"),
        query="bug",
    )
    add(
        Recipe(
            339,
            a11y,
            (
                click("Issues", issues_all, why="I'll open the project's issues."),
                click(
                    "bug", issues_bug, why="Clicking the 'bug' label filters the open issues by that label."
                ),
            ),
            variants={
                "wrong": (
                    click("Issues", issues_all, why="I'll open the project's issues."),
                    typ(
                        "Search or filter results...",
                        "bug",
                        issues_search,
                        why="I'll search the open issues for 'bug'.",
                    ),
                )
            },
            finding="The open issues labelled bug are listed.",
        )
    )
    status_form = replace(
        ghome,
        kind="form",
        heading="Set a status",
        menu=(),
        rows=(),
        buttons=("Set status", "Cancel"),
        fields=(
            ("What's your status?", ""),
            ("Set yourself as busy", "[ ]"),
            ("Clear status after", "Never"),
        ),
    )
    add(
        Recipe(
            418,
            ghome,
            (
                click(
                    "byteblaze",
                    replace(
                        ghome,
                        menu=(
                            "Byte Blaze @byteblaze",
                            "Set status",
                            "Edit profile",
                            "Preferences",
                            "Sign out",
                        ),
                    ),
                    nav=False,
                    why="The status is set from the avatar menu.",
                ),
                click("Set status", status_form, nav=False, why="I'll choose 'Set status'."),
                click("Set yourself as busy", text="[x]", why="Ticking 'Set yourself as busy'."),
                click(
                    "Set status",
                    replace(ghome, banner="Status updated: Busy"),
                    nav=False,
                    why="Saving the status.",
                    reqs=(
                        json_req(
                            "PUT",
                            "__GITLAB__/api/v4/user/status",
                            {"emoji": "", "message": "", "availability": "busy", "clear_status_after": None},
                            response={
                                "emoji": "",
                                "message": "",
                                "availability": "busy",
                                "clear_status_at": None,
                            },
                        ),
                    ),
                ),
            ),
            finding="My status is set to Busy.",
        )
    )
    design = gl(
        "/primer/design",
        "Primer / design",
        "project",
        text="Primer Design Guide",
        buttons=("Star 11", "Fork 0"),
    )
    mrs = gl(
        "/primer/design/-/merge_requests",
        "Merge requests · Primer / design",
        "list",
        heading="Merge requests",
        buttons=("Open 9", "Merged", "Closed", "All"),
        rows=(
            ("Add octovisuals page", "!450", "Cole Bemis"),
            ("Update color tokens", "!447", "Inayaili Leon"),
            ("Fix broken image links", "!441", "Shawn Allen"),
        ),
    )
    comment = "Thanks, working on reviews"
    mr = gl(
        "/primer/design/-/merge_requests/450",
        "Add octovisuals page (!450) · Merge requests · Primer / design",
        "mr",
        heading="Add octovisuals page",
        text="Adds a page describing the Octovisuals illustration style.",
        fields=(("Write a comment", ""),),
        buttons=("Comment",),
    )
    to_mr = (
        click("primer / design", design, why="The primer/design project is in my list."),
        click("Merge requests", mrs, why="I'll open its merge requests."),
        click("Add octovisuals page", mr, why="This merge request is about the octovisuals page."),
        typ("Write a comment", comment, enter=False, why="Typing the comment."),
    )
    add(
        Recipe(
            389,
            ghome,
            (
                *to_mr,
                click(
                    "Comment",
                    replace(mr, rows=(("Author", "Comment"), ("Byte Blaze", comment))),
                    nav=False,
                    why="Posting it.",
                    reqs=(
                        json_req(
                            "POST",
                            "__GITLAB__/primer/design/notes?target_id=139245&target_type=merge_request",
                            {
                                "view": "inline",
                                "line_type": "",
                                "merge_request_diff_head_sha": "6c2a1f0",
                                "target_type": "merge_request",
                                "target_id": 139245,
                                "return_discussion": True,
                                "note": {
                                    "note": comment,
                                    "noteable_type": "MergeRequest",
                                    "noteable_id": 139245,
                                    "commit_id": "",
                                    "type": None,
                                    "line_code": "",
                                },
                            },
                            response={"valid": True, "discussion": {"id": "d41d8cd9"}},
                        ),
                    ),
                ),
            ),
            variants={"missing": to_mr},
            finding="The comment is posted on !450.",
        )
    )
    ncov_search = gl(
        "/search?search=2019-nCov",
        "Search · GitLab",
        "list",
        heading="Search results",
        buttons=("Projects 1", "Issues", "Merge requests"),
        query="2019-nCov",
        rows=(("yjlou / 2019-nCov", "COVID-19 case data and dashboards", "updated 2 years ago"),),
    )
    ncov = gl(
        "/yjlou/2019-nCov",
        "yjlou / 2019-nCov",
        "project",
        text="Project ID: 79",
        buttons=("Star 0", "Fork 0", "Clone"),
    )
    fork_form = gl(
        "/yjlou/2019-nCov/-/forks/new",
        "Fork project · yjlou / 2019-nCov",
        "form",
        heading="Fork project",
        fields=(
            ("Project name", "2019-nCov"),
            ("Project URL", "byteblaze"),
            ("Project slug", "2019-nCov"),
            ("Visibility level", "Public"),
        ),
        buttons=("Fork project", "Cancel"),
    )
    forked = gl(
        "/byteblaze/2019-nCov",
        "byteblaze / 2019-nCov",
        "project",
        banner="The project was successfully forked.",
        text="Forked from yjlou / 2019-nCov",
        buttons=("Star 0", "Fork 0", "Clone"),
    )
    add(
        Recipe(
            394,
            ghome,
            (
                typ("Search GitLab", "2019-nCov", ncov_search, why="I'll search for the 2019-nCov project."),
                click("yjlou / 2019-nCov", ncov, why="Opening the project."),
                click("Fork 0", fork_form, why="I'll fork it."),
                click(
                    "Fork project",
                    forked,
                    why="The defaults put the fork in my namespace; forking.",
                    reqs=(
                        json_req(
                            "POST",
                            "__GITLAB__/api/v4/projects/79/fork",
                            {
                                "id": "79",
                                "name": "2019-nCov",
                                "namespace_id": 2505,
                                "path": "2019-nCov",
                                "description": "",
                                "visibility": "public",
                            },
                            status=201,
                            response={"id": 196, "path_with_namespace": "byteblaze/2019-nCov"},
                        ),
                    ),
                ),
            ),
            finding="2019-nCov is forked to byteblaze/2019-nCov.",
        )
    )
