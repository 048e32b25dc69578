"""Recipes on the shopping site (Magento storefront): orders, search, wish list, cart."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..web import FORM_KEY, Recipe, Req, back, click, form_post, scroll, shop, typ, uenc


def build(add: Callable[[Recipe], None]) -> None:
    home = shop("/", "One Stop Market", "home")
    account = shop(
        "/customer/account/",
        "My Account",
        "orders",
        heading="My Account",
        text="Contact Information: Emma Lopez, emma.lopz@gmail.com. Newsletters: not subscribed.",
    )
    head = ("Order #", "Date", "Ship To", "Order Total", "Status", "Action")
    page1 = (
        ("000000189", "5/2/23", "Emma Lopez", "$754.99", "Pending"),
        ("000000188", "5/2/23", "Emma Lopez", "$2,126.32", "Pending"),
        ("000000187", "4/27/23", "Emma Lopez", "$1,004.99", "Pending"),
        ("000000186", "4/19/23", "Emma Lopez", "$21.99", "Pending"),
        ("000000185", "4/12/23", "Emma Lopez", "$215.80", "Pending"),
        ("000000184", "4/5/23", "Emma Lopez", "$194.96", "Pending"),
        ("000000183", "3/30/23", "Emma Lopez", "$67.00", "Pending"),
        ("000000182", "3/25/23", "Emma Lopez", "$45.65", "Pending"),
        ("000000181", "3/17/23", "Emma Lopez", "$40.43", "Pending"),
        ("000000180", "3/11/23", "Emma Lopez", "$65.32", "Complete"),
    )
    page2 = (
        ("000000179", "3/10/23", "Emma Lopez", "$440.64", "Complete"),
        ("000000178", "3/9/23", "Emma Lopez", "$64.13", "Complete"),
        ("000000177", "3/8/23", "Emma Lopez", "$38.99", "Complete"),
        ("000000176", "3/6/23", "Emma Lopez", "$132.20", "Complete"),
        ("000000175", "3/4/23", "Emma Lopez", "$17.44", "Complete"),
        ("000000174", "3/2/23", "Emma Lopez", "$229.95", "Complete"),
        ("000000173", "3/1/23", "Emma Lopez", "$84.50", "Complete"),
        ("000000172", "2/28/23", "Emma Lopez", "$22.35", "Complete"),
        ("000000171", "2/28/23", "Emma Lopez", "$31.10", "Complete"),
        ("000000170", "2/27/23", "Emma Lopez", "$365.42", "Canceled"),
    )
    orders1 = shop(
        "/sales/order/history/",
        "My Orders",
        "orders",
        heading="My Orders",
        rows=(head, *((*r, "View Order") for r in page1)),
        buttons=("Page 2", "Next"),
    )
    orders2 = shop(
        "/sales/order/history/?p=2",
        "My Orders",
        "orders",
        heading="My Orders",
        rows=(head, *((*r, "View Order") for r in page2)),
        buttons=("Page 1", "Previous"),
    )
    foundation = "Zinus 9 Inch Metal Smart Box Spring / Mattress Foundation, Queen"
    order170 = shop(
        "/sales/order/view/order_id/170/",
        "Order # 000000170",
        "order",
        heading="Order # 000000170",
        text="Status: Canceled. Order Date: February 27, 2023. Subtotal $360.42, Shipping & Handling "
        "$5.00, Grand Total $365.42.",
        rows=(
            ("Product Name", "SKU", "Price", "Qty", "Subtotal"),
            (foundation, "B06XKNQ9T5", "$360.42", "Canceled 1", "$360.42"),
        ),
        buttons=("Reorder", "Print Order"),
    )
    to_orders = (
        click(
            "My Account", account, why="My orders are listed in the account area, so I'll open My Account."
        ),
        click(
            "My Orders", orders1, why="I'll open the My Orders tab to see the order history with statuses."
        ),
    )
    add(
        Recipe(
            188,
            home,
            (
                *to_orders,
                scroll(
                    why="The first page shows pending orders and one complete order; I'll look further down."
                ),
                click(
                    "Page 2",
                    orders2,
                    why="No canceled order on this page, so I'll go to page 2 of the order history.",
                ),
                click(
                    "000000170",
                    order170,
                    why="Order 000000170 is the most recent one marked Canceled; I'll open it to "
                    "confirm its total.",
                ),
            ),
            answer=[365.42],
            wrong_answer=[360.42],
            finding="The latest canceled order is #000000170 with a grand total of $365.42.",
            wrong_finding="The canceled order #000000170 cost $360.42.",
        )
    )
    add(
        Recipe(
            191,
            home,
            (
                *to_orders,
                scroll(why="I need an order with status Processing; none so far, I'll keep looking."),
                click("Page 2", orders2, why="I'll check the second page of orders for a Processing status."),
                scroll(why="Still only Complete and Canceled orders here."),
            ),
            answer=None,
            wrong_answer=[754.99],
            finding="None of my orders has the status Processing; all are Pending, Complete or Canceled.",
            wrong_finding="The latest order still being processed is #000000189 with a total of $754.99.",
        )
    )
    add(
        Recipe(
            233,
            home,
            to_orders,
            answer=["000000180"],
            wrong_answer=["000000189"],
            finding="The most recent order with status Complete is order #000000180 (3/11/23).",
            wrong_finding="I could not find any order with the status Complete in the order history.",
        )
    )
    earphone = "wireless earphone"
    q = "/catalogsearch/result/?q=wireless+earphone"
    res = shop(
        q,
        f"Search results for: '{earphone}'",
        "grid",
        heading=f"Search results for: '{earphone}'",
        query=earphone,
    )
    asc = shop(
        "/catalogsearch/result/index/?product_list_order=price&q=wireless+earphone",
        f"Search results for: '{earphone}'",
        "grid",
        heading=f"Search results for: '{earphone}'",
        query=earphone,
        rows=(
            ("Earbuds Replacement Ear Tips, 1 Pair", "$0.01"),
            ("Wired Earphones with Microphone, 3.5mm", "$5.99"),
            ("Bluetooth Earbuds with Charging Case", "$9.99"),
            ("Sport Wireless Earphones, Over-Ear Hooks", "$12.49"),
        ),
    )
    desc = shop(
        "/catalogsearch/result/index/?product_list_dir=desc&product_list_order=price&q=wireless+earphone",
        f"Search results for: '{earphone}'",
        "grid",
        heading=f"Search results for: '{earphone}'",
        query=earphone,
        rows=(
            ("Sony WF-1000XM4 Industry Leading Noise Canceling Truly Wireless Earbuds", "$298.00"),
            ("Jabra Elite 85t True Wireless Earbuds", "$229.99"),
            ("Bose QuietComfort Earbuds", "$199.00"),
        ),
    )
    add(
        Recipe(
            124,
            home,
            (
                typ(
                    "Search entire store here...",
                    earphone,
                    res,
                    why="I'll search the store for wireless earphones.",
                ),
                click(
                    "Sort By", asc, why="Sorting the results by price will give me the cheapest item first."
                ),
                click(
                    "Set Descending Direction",
                    desc,
                    why="Now I'll reverse the order to see the most expensive one.",
                ),
            ),
            answer=[{"min": 0.01, "max": 298.0}],
            wrong_answer=[{"min": 9.99, "max": 298.0}],
            finding="Wireless earphones range from $0.01 to $298.00.",
            wrong_finding="The cheapest real wireless earphones cost $9.99 and the most expensive $298.00.",
        )
    )
    games = shop(
        "/video-games.html",
        "Video Games",
        "grid",
        heading="Video Games",
        buttons=("PlayStation 4", "Xbox One", "Nintendo Switch", "PC"),
    )
    add(
        Recipe(
            260,
            home,
            (
                click("Video Games", games, why="The Video Games category is in the top menu; I'll open it."),
                scroll(why="This is the Video Games category page with the products listed."),
            ),
            finding="The Video Games category page is open.",
        )
    )
    xbox = shop(
        "/catalogsearch/result/?q=xbox",
        "Search results for: 'xbox'",
        "grid",
        heading="Search results for: 'xbox'",
        query="xbox",
    )
    xbox_ctl = shop(
        "/catalogsearch/result/?q=xbox+controller",
        "Search results for: 'xbox controller'",
        "grid",
        heading="Search results for: 'xbox controller'",
        query="xbox controller",
    )
    add(
        Recipe(
            275,
            home,
            (
                typ(
                    "Search entire store here...",
                    "xbox",
                    xbox,
                    why="I'll type xbox into the store search box.",
                ),
            ),
            variants={
                "wrong": (
                    typ(
                        "Search entire store here...",
                        "xbox controller",
                        xbox_ctl,
                        why="I'll search for xbox controllers, which is what people usually look for.",
                    ),
                )
            },
            finding="The search results for 'xbox' are shown.",
        )
    )
    ps4 = shop(
        "/video-games/playstation-4.html",
        "PlayStation 4",
        "grid",
        heading="PlayStation 4",
        buttons=("Accessories", "Consoles", "Games"),
    )
    ps4_acc = shop(
        "/video-games/playstation-4/accessories.html",
        "Accessories - PlayStation 4",
        "grid",
        heading="Accessories",
    )
    ps4_sorted = shop(
        "/video-games/playstation-4/accessories.html?product_list_order=price",
        "Accessories - PlayStation 4",
        "grid",
        heading="Accessories",
    )
    astro = (
        "Astro Gaming A50 Wireless Headset + Base Station Gen 4 - Compatible with PS5, PS4, PC, Mac - "
        "Black/Silver"
    )
    dualshock = "DualShock 4 Wireless Controller for PlayStation 4 - Jet Black"
    ps4_desc = shop(
        "/video-games/playstation-4/accessories.html?product_list_dir=desc&product_list_order=price",
        "Accessories - PlayStation 4",
        "grid",
        heading="Accessories",
        rows=((astro, "$299.99"), (dualshock, "$64.99"), ("PS4 Vertical Stand with Cooling Fan", "$29.99")),
    )
    astro_page = shop(
        "/astro-gaming-a50-wireless-headset-base-station-gen-4-compatible-with-ps5-ps4-pc-mac-black-"
        "silver.html",
        astro,
        "product",
        rows=((astro, "$299.99"),),
    )
    ds_page = shop(
        "/dualshock-4-wireless-controller-for-playstation-4-jet-black.html",
        dualshock,
        "product",
        rows=((dualshock, "$64.99"),),
    )
    ps4_path = (
        click("Video Games", games, why="PS4 accessories should be under Video Games."),
        click("PlayStation 4", ps4, why="I'll narrow down to PlayStation 4."),
        click("Accessories", ps4_acc, why="Now the Accessories subcategory."),
        click("Sort By", ps4_sorted, why="I'll sort by price to find the most expensive accessory."),
        click(
            "Set Descending Direction", ps4_desc, why="Switching to descending order puts the priciest first."
        ),
    )
    open_astro = click(astro, astro_page, why="The Astro A50 headset is the most expensive; I'll open it.")
    add(
        Recipe(
            238,
            home,
            (*ps4_path, open_astro),
            variants={
                "left": (
                    *ps4_path,
                    open_astro,
                    back(ps4_desc, why="Let me go back to the list to double-check no accessory costs more."),
                ),
                "wrong": (
                    *ps4_path,
                    click(
                        dualshock,
                        ds_page,
                        why="The DualShock 4 controller is the most popular accessory; I'll open its page.",
                    ),
                ),
            },
            finding="The product page of the most expensive PS4 accessory (Astro Gaming A50) is open.",
        )
    )
    tide = "Tide PODS Spring Meadow Scent HE Turbo Laundry Detergent Pacs, 81 Count"
    tide_url = "/tide-pods-spring-meadow-scent-he-turbo-laundry-detergent-pacs-81-count.html"
    tide_res = shop(
        "/catalogsearch/result/?q=Tide+PODS+Spring+Meadow",
        "Search results for: 'Tide PODS Spring Meadow'",
        "grid",
        heading="Search results for: 'Tide PODS Spring Meadow'",
        query="Tide PODS Spring Meadow",
        rows=((tide, "$19.99"), ("Tide PODS Free & Gentle, 81 Count", "$21.49")),
    )
    tide_page = shop(tide_url, tide, "product", rows=((tide, "$19.99"),))
    wishlist = shop(
        "/wishlist/index/index/wishlist_id/5/",
        "My Wish List",
        "grid",
        heading="My Wish List",
        banner=f"{tide} has been added to your Wish List.",
        rows=((tide, "$19.99"),),
        text="1 item",
    )
    add(
        Recipe(
            465,
            home,
            (
                typ(
                    "Search entire store here...",
                    "Tide PODS Spring Meadow",
                    tide_res,
                    why="I'll search for the product.",
                ),
                click(tide, tide_page, why="The first result is exactly the 81 count Spring Meadow pack."),
                click(
                    "Add to Wish List",
                    wishlist,
                    why="I'll add it to my wish list.",
                    reqs=(
                        form_post(
                            "__SHOPPING__/wishlist/index/add/",
                            {
                                "product": "71337",
                                "uenc": uenc("__SHOPPING__" + tide_url),
                                "form_key": FORM_KEY,
                            },
                            "__SHOPPING__/wishlist/index/index/wishlist_id/5/",
                        ),
                    ),
                ),
            ),
            finding=f"{tide} is now in my wish list.",
        )
    )
    foundation_url = "/zinus-9-inch-smart-box-spring-mattress-foundation-queen.html"
    foundation_page = shop(foundation_url, foundation, "product", rows=((foundation, "$360.42"),))
    added = replace(foundation_page, banner=f"You added {foundation} to your shopping cart.")
    to_order170 = (
        *to_orders,
        click("Page 2", orders2, why="The cancelled order from February or March 2023 should be on page 2."),
        click(
            "000000170", order170, why="Order 000000170 from 2/27/23 was canceled; let me check its items."
        ),
    )
    add(
        Recipe(
            436,
            home,
            (
                *to_order170,
                click(
                    foundation,
                    foundation_page,
                    why="This is the mattress foundation; I'll open its product page.",
                ),
                click(
                    "Add to Cart",
                    added,
                    nav=False,
                    why="I'll add one to the cart to reorder it.",
                    reqs=(
                        Req(
                            "POST",
                            f"__SHOPPING__/checkout/cart/add/uenc/{uenc('__SHOPPING__' + foundation_url)}"
                            "/product/14854/",
                            {
                                "product": "14854",
                                "selected_configurable_option": "",
                                "related_product": "",
                                "item": "14854",
                                "form_key": FORM_KEY,
                                "qty": "1",
                            },
                            response=[],
                        ),
                    ),
                ),
            ),
            variants={
                # Magento's own "Reorder" link posts to sales/order/reorder: a real reorder, but not the
                # add-to-cart request the task's evaluator looks for.
                "wrong": (
                    *to_order170,
                    click(
                        "Reorder",
                        shop(
                            "/checkout/cart/",
                            "Shopping Cart",
                            "orders",
                            heading="Shopping Cart",
                            rows=(
                                ("Item", "Price", "Qty", "Subtotal"),
                                (foundation, "$360.42", "1", "$360.42"),
                            ),
                            text="1 item",
                        ),
                        why="The order page has a Reorder button; that re-adds its items to the cart.",
                        reqs=(
                            form_post(
                                "__SHOPPING__/sales/order/reorder/order_id/170/",
                                {"form_key": FORM_KEY},
                                "__SHOPPING__/checkout/cart/",
                            ),
                        ),
                    ),
                ),
                "missing": to_order170,
            },
            finding=f"I reordered the {foundation}.",
        )
    )
