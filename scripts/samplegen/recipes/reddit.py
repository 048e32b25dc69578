"""Recipes on the forum (Postmill): posting, searching, voting, editing a profile, creating a forum."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..web import POSTMILL_TOKEN, Act, Recipe, Req, back, click, form_post, forum, scroll, typ, visit


def build(add: Callable[[Recipe], None]) -> None:
    fhome = forum("/", "Postmill", "list", heading="")
    forums = forum(
        "/forums",
        "List of forums",
        "table",
        heading="List of forums",
        rows=(
            ("Forum", "Title", "Submissions"),
            ("AskReddit", "AskReddit", "3,814"),
            ("books", "books", "1,295"),
            ("consoles", "consoles", "604"),
            ("DIY", "DIY", "1,040"),
            ("personalfinance", "Personal Finance", "2,031"),
            ("space", "space", "1,544"),
            ("Worcester", "Worcester", "312"),
        ),
    )
    pf_title = "56 year old mom has no retirement. Where do I even start on her behalf?"
    pf_new = forum(
        "/f/personalfinance/new",
        "/f/personalfinance",
        "list",
        heading="/f/personalfinance",
        rows=(
            (pf_title, "Hammer94", "4 comments", "3"),
            ("Is it worth refinancing at 6.2%?", "tealeaf77", "11 comments", "5"),
            ("First paycheck: how much should go to the 401k?", "PixelPilot", "8 comments", "12"),
        ),
    )
    pf_post = forum(
        "/f/personalfinance/129816/56-year-old-mom-has-no-retirement-where-do-i-even-start-on-her",
        f"{pf_title} : personalfinance",
        "post",
        heading=pf_title,
        text="My mom is 56, recently divorced and has essentially nothing saved for retirement. She owns "
        "a small house with a mortgage and works part time. Where should she even start?",
        rows=(
            (
                "quietriver  +34 / -0",
                (
                    "Start with an emergency fund, then max out the catch-up "
                    "contributions she is allowed after 50."
                ),
            ),
            ("tealeaf77  +12 / -1", "Look at when she can claim Social Security; delaying matters."),
            ("Hammer94  +5 / -0", "Thanks, this is really helpful."),
            ("rustyspoon  +3 / -2", "Downsizing the house could free up a lot of equity."),
        ),
    )
    pf = forum("/f/personalfinance", "/f/personalfinance", "list", heading="/f/personalfinance")
    add(
        Recipe(
            27,
            fhome,
            (
                click("Forums", forums, why="I'll open the list of forums to find personal finance."),
                click("personalfinance", pf, why="This is the personal finance forum."),
                click("New", pf_new, why="Sorting by New shows the most recent post first."),
                click(
                    pf_title,
                    pf_post,
                    why="The newest post is by Hammer94; I'll open it to check the comments.",
                ),
                scroll(why="Every comment not from the author has more upvotes than downvotes."),
            ),
            answer=[{"username": "Hammer94", "post_title": pf_title, "count": 0}],
            wrong_answer=[{"username": "Hammer94", "post_title": pf_title, "count": 1}],
            finding=f"The most recent post is '{pf_title}' by Hammer94; no other commenter's comment has "
            "more downvotes than upvotes.",
        )
    )
    hobbit = "I just finished reading The Hobbit to my 6 year old daughter, and she loved it!"
    carol = "Apple Books has a free audiobook of A Christmas Carol narrated by LeVar Burton!"
    books_rows = (
        (
            "The letters of T.S. Eliot to Emily Hale that were kept sealed for 60 years are now public",
            "Icy-Mortgage",
            "132 comments",
            "1563",
        ),
        ("Friendly reminder bookshop.org exists.", "bookworm_22", "84 comments", "1204"),
        (hobbit, "jmvanhorn", "56 comments", "987"),
        (
            "Which book do you wish you could read again for the first time?",
            "quietriver",
            "412 comments",
            "876",
        ),
        ("Books that made you cry? I need recommendations", "tealeaf77", "233 comments", "640"),
        ("Is it just me or do physical books smell amazing?", "PixelPilot", "97 comments", "611"),
        (carol, "rustyspoon", "31 comments", "598"),
        ("Recommend me a long fantasy series", "Dhghomon", "305 comments", "544"),
        ("I've read 100 books this year. Here are my ten favorites", "Proud_Idiot", "120 comments", "512"),
        ("Best translations of Dostoevsky?", "mineinhusdson", "66 comments", "498"),
    )
    books = forum("/f/books", "/f/books", "list", heading="/f/books", rows=books_rows)
    hobbit_post = forum(
        "/f/books/59447/i-just-finished-reading-the-hobbit-to-my-6-year-old-daughter-and",
        hobbit,
        "post",
        heading=hobbit,
        text="We read a chapter every night. She did all the voices for Gollum herself by the end.",
        rows=(("quietriver", "That's wonderful! The Hobbit is perfect for reading aloud."),),
    )
    carol_post = forum(
        "/f/books/81352/apple-books-has-a-free-audiobook-of-a-christmas-carol-narrated",
        carol,
        "post",
        heading=carol,
        text="LeVar Burton reading Dickens. That's it, that's the post.",
        rows=(("tealeaf77", "Reading Rainbow forever."),),
    )
    add(
        Recipe(
            66,
            fhome,
            (
                click("Forums", forums, why="I'll find the Books forum in the forum list."),
                click("books", books, why="The books forum is sorted by Hot by default."),
                click(hobbit, hobbit_post, why="This post is about one book, The Hobbit; let me check it."),
                back(books, why="It recommends exactly one book. Back to the list."),
                click(carol, carol_post, why="This one is about A Christmas Carol only."),
                back(
                    books,
                    why="Also exactly one book. The others are general questions or lists of several books.",
                ),
            ),
            answer=[hobbit, carol],
            wrong_answer=[hobbit, carol, "Recommend me a long fantasy series"],
            finding="Two of the ten hottest posts recommend exactly one book: The Hobbit, A Christmas Carol.",
        )
    )
    missing_forum = forum(
        "/f/iphone13",
        "Page not found",
        "page",
        heading="Page not found",
        text="The forum you were looking for does not exist.",
    )
    search_user = forum(
        "/search?q=FTorrez81",
        'Search results for "FTorrez81"',
        "list",
        heading="Search",
        query="FTorrez81",
        text="No results found.",
    )
    add(
        Recipe(
            723,
            fhome,
            (
                visit(missing_forum, why="I'll go straight to the iphone13 forum."),
                typ(
                    "Search query",
                    "FTorrez81",
                    search_user,
                    why="The forum doesn't exist; I'll search for the user.",
                ),
                click("Forums", forums, why="Let me double check the forum list for an iPhone forum."),
            ),
            answer=None,
            wrong_answer=None,
            finding="There is no forum iphone13 and no submission by FTorrez81, so nothing to like.",
        )
    )
    me = forum(
        "/user/MarvelsGrantMan136",
        "MarvelsGrantMan136",
        "page",
        heading="MarvelsGrantMan136",
        text="Registered 2 years ago. Biography: (none)",
        buttons=("Edit biography", "Submissions", "Comments"),
    )
    bio_form = forum(
        "/user/MarvelsGrantMan136/edit_biography",
        "Edit biography",
        "form",
        heading="Edit biography",
        fields=(("Biography", ""),),
        buttons=("Save",),
    )
    add(
        Recipe(
            399,
            fhome,
            (
                click("MarvelsGrantMan136", me, why="The bio is on my user page."),
                click("Edit biography", bio_form, why="There is an 'Edit biography' link."),
                typ("Biography", "I am a robot", enter=False, why="I'll enter the new bio."),
                click(
                    "Save",
                    replace(me, text="Registered 2 years ago. Biography: I am a robot"),
                    why="Saving.",
                    reqs=(
                        form_post(
                            "__REDDIT__/user/MarvelsGrantMan136/edit_biography",
                            {
                                "user_biography[biography]": "I am a robot",
                                "user_biography[_token]": POSTMILL_TOKEN,
                            },
                            "__REDDIT__/user/MarvelsGrantMan136",
                        ),
                    ),
                ),
            ),
            finding="My biography now reads 'I am a robot'.",
        )
    )
    newest = "Just finished Project Hail Mary and I need to talk about it"
    second = "What are you reading this week? (June 2023)"
    books_new = forum(
        "/f/books/new",
        "/f/books",
        "list",
        heading="/f/books",
        rows=((newest, "tealeaf77", "2 comments", "1"), (second, "bookworm_22", "17 comments", "4")),
    )

    def upvote(title: str, sid: int, why: str) -> tuple[Act, ...]:
        rows = tuple(
            (r[0], r[1], r[2], str(int(r[3]) + 1) if r[0] == title else r[3]) for r in books_new.rows
        )
        return (
            click("Forums", forums, why="I'll open the forum list."),
            click("books", books, why="Here is the books forum."),
            click("New", books_new, why="Sorting by New to find the newest post."),
            click(
                f"upvote {title}",
                replace(books_new, rows=rows),
                nav=False,
                why=why,
                reqs=(
                    Req(
                        "POST",
                        f"__REDDIT__/sv/{sid}.json",
                        {"token": POSTMILL_TOKEN, "choice": "1"},
                        response={"netScore": int(rows[0 if title == newest else 1][3])},
                    ),
                ),
            ),
        )

    add(
        Recipe(
            404,
            fhome,
            upvote(newest, 124260, "The newest post is at the top; I'll click its upvote arrow."),
            variants={"wrong": upvote(second, 124259, "I'll upvote the newest discussion thread.")},
            finding="I upvoted the newest post in /f/books.",
        )
    )
    sidebar = "**New**, Classic, *Movies*, Post my novel, Random"
    create = forum(
        "/create_forum",
        "Create forum",
        "form",
        heading="Create forum",
        fields=(("Name", ""), ("Title", ""), ("Description", ""), ("Sidebar", "")),
        buttons=("Create",),
    )
    scifi = forum(
        "/f/sci_fi", "/f/sci_fi", "list", heading="/f/sci_fi", text="There are no submissions here yet."
    )

    def create_forum(side: str) -> tuple[Act, ...]:
        return (
            click("Create forum", create, why="There is a 'Create forum' link in the top bar."),
            typ("Name", "sci_fi", enter=False, why="Filling in the name."),
            typ("Title", "sci_fi", enter=False, why="The title is the same as the name."),
            typ(
                "Description", "A wild place for sci-fi enthusiasts", enter=False, why="Now the description."
            ),
            typ("Sidebar", side, enter=False, why="And the sidebar text."),
            click(
                "Create",
                scifi,
                why="Creating the forum.",
                reqs=(
                    form_post(
                        "__REDDIT__/create_forum",
                        {
                            "forum[name]": "sci_fi",
                            "forum[title]": "sci_fi",
                            "forum[description]": "A wild place for sci-fi enthusiasts",
                            "forum[sidebar]": side,
                            "forum[_token]": POSTMILL_TOKEN,
                        },
                        "__REDDIT__/f/sci_fi",
                    ),
                ),
            ),
        )

    add(
        Recipe(
            580,
            fhome,
            create_forum(sidebar),
            variants={"wrong": create_forum("New, Classic, Movies, Post my novel, Random")},
            finding="The forum sci_fi was created.",
        )
    )
    question = "what is the recommended console to buy these days?"
    submit = forum(
        "/submit",
        "Create submission",
        "form",
        heading="Create submission",
        fields=(("URL", ""), ("Title", ""), ("Body", ""), ("Forum", "Choose one")),
        buttons=("Create submission",),
    )
    posted = forum(
        "/f/consoles/137524/what-is-the-recommended-console-to-buy-these-days",
        question,
        "post",
        heading=question,
        text="",
        rows=(),
    )
    add(
        Recipe(
            600,
            fhome,
            (
                click("Forums", forums, why="I'll check which forum fits a console question."),
                click(
                    "Submit",
                    submit,
                    why="The consoles forum is the right place. I'll open the submission form.",
                ),
                typ("Title", question, enter=False, why="Typing the title."),
                typ("Forum", "consoles", enter=False, why="Choosing the consoles forum."),
                click(
                    "Create submission",
                    posted,
                    why="Posting.",
                    reqs=(
                        form_post(
                            "__REDDIT__/submit",
                            {
                                "submission[url]": "",
                                "submission[title]": question,
                                "submission[body]": "",
                                "submission[forum]": "10039",
                                "submission[_token]": POSTMILL_TOKEN,
                            },
                            "__REDDIT__/f/consoles/137524/what-is-the-recommended-console-to-buy-these-days",
                        ),
                    ),
                ),
            ),
            finding="The question is posted in /f/consoles.",
        )
    )
