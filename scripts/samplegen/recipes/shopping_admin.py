"""Recipes on the shopping admin (Magento back office): reports, reviews, orders, customers, content."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..web import FORM_KEY, Act, Recipe, Req, View, adm, click, form_post, magento_filter, scroll, typ


def build(add: Callable[[Recipe], None]) -> None:
    dash = adm(
        "/admin/dashboard/",
        "Dashboard",
        "dashboard",
        heading="Dashboard",
        rows=(
            ("Customer", "Items", "Total"),
            ("Jane Doe", "3", "$188.00"),
            ("Alex Thomas", "1", "$39.00"),
            ("Grace Nguyen", "2", "$121.50"),
            ("Lily Potter", "1", "$54.00"),
            ("Sarah Miller", "4", "$212.90"),
        ),
    )

    def flyout(title: str, *items: str) -> View:
        return replace(dash, menu=(title, *items))

    reports_menu = flyout(
        "Reports",
        "Products in Cart",
        "Search Terms",
        "Orders",
        "Tax",
        "Invoiced",
        "Shipping",
        "Refunds",
        "Coupons",
        "Reviews by customers",
        "Bestsellers",
    )
    report_fields = (("From", ""), ("To", ""), ("Order Status", "Any"), ("Period", "Day"))
    report = adm(
        "/reports/report_sales/sales/",
        "Orders Report / Sales / Reports",
        "report",
        heading="Orders Report",
        fields=report_fields,
        buttons=("Show Report",),
        rows=(("Interval", "Orders", "Sales Items", "Sales Total", "Invoiced", "Refunded"),),
    )
    filt = magento_filter(
        "report_from=01/01/2023&report_to=05/31/2023&report_period=month&show_order_statuses=1"
        "&order_statuses[]=complete"
    )
    report_done = adm(
        f"/reports/report_sales/sales/filter/{filt}/",
        "Orders Report / Sales / Reports",
        "report",
        heading="Orders Report",
        buttons=("Show Report",),
        fields=(
            ("From", "01/01/2023"),
            ("To", "05/31/2023"),
            ("Order Status", "Complete"),
            ("Period", "Month"),
        ),
        rows=(
            ("Interval", "Orders", "Sales Items", "Sales Total", "Invoiced", "Refunded"),
            ("1/2023", "12", "26", "$2,016.37", "$2,016.37", "$0.00"),
            ("2/2023", "7", "15", "$1,034.61", "$1,034.61", "$0.00"),
            ("3/2023", "5", "9", "$612.18", "$612.18", "$0.00"),
            ("4/2023", "9", "21", "$1,498.40", "$1,498.40", "$0.00"),
            ("5/2023", "5", "12", "$804.35", "$804.35", "$0.00"),
            ("Total", "38", "83", "$5,965.91", "$5,965.91", "$0.00"),
        ),
    )
    add(
        Recipe(
            108,
            dash,
            (
                click(
                    "Reports", reports_menu, nav=False, why="Order counts per month are in the Reports menu."
                ),
                click(
                    "Orders", report, why="The Orders report under Sales can group completed orders by month."
                ),
                typ("From", "01/01/2023", enter=False, why="I'll set the start date to January 1, 2023."),
                typ("To", "05/31/2023", enter=False, why="And the end date to May 31, 2023."),
                typ("Order Status", "Complete", enter=False, why="Only completed orders should be counted."),
                typ("Period", "Month", enter=False, why="The report should be grouped by month."),
                click("Show Report", report_done, why="Now I'll run the report."),
            ),
            answer=[
                {"month": "January", "count": 12},
                {"month": "February", "count": 7},
                {"month": "March", "count": 5},
                {"month": "April", "count": 9},
                {"month": "May", "count": 5},
            ],
            wrong_answer=[
                {"month": "January", "count": 12},
                {"month": "February", "count": 7},
                {"month": "March", "count": 5},
                {"month": "April", "count": 9},
            ],
            finding="Completed orders per month: January 12, February 7, March 5, April 9, May 5.",
        )
    )
    marketing_menu = flyout(
        "Marketing",
        "Catalog Price Rule",
        "Cart Price Rules",
        "Email Templates",
        "Newsletter Queue",
        "All Reviews",
        "Pending Reviews",
        "URL Rewrites",
        "Search Terms",
    )
    reviews = adm(
        "/review/product/",
        "Reviews / Customer Reviews / Reviews / Marketing",
        "grid",
        heading="Reviews",
        rows=(("ID", "Created", "Status", "Title", "Nickname", "Review"),),
    )
    found = (
        ("352", "Apr 24, 2023", "Approved", "Not what I hoped", "Valorie", "I was disappointed with the fit"),
        ("318", "Apr 19, 2023", "Approved", "Runs small", "Merrie", "Really disappointed, had to return it"),
        ("301", "Apr 19, 2023", "Approved", "Meh", "Chang", "A bit disappointed by the fabric"),
        ("276", "Apr 19, 2023", "Approved", "Color faded", "Josefina", "Disappointed after one wash"),
        (
            "207",
            "Apr 19, 2023",
            "Approved",
            "Zipper broke",
            "Lavinia",
            "Disappointed, zipper broke in a week",
        ),
        ("118", "Apr 19, 2023", "Approved", "Too thin", "Rick", "Disappointed that it is see-through"),
    )
    reviews_found = adm(
        f"/review/product/index/filter/{magento_filter('detail=disappointed')}/",
        "Reviews / Customer Reviews / Reviews / Marketing",
        "grid",
        heading="Reviews",
        query="disappointed",
        text="6 records found",
        rows=(("ID", "Created", "Status", "Title", "Nickname", "Review"), *found),
    )
    add(
        Recipe(
            11,
            dash,
            (
                click(
                    "Marketing", marketing_menu, nav=False, why="Product reviews are managed under Marketing."
                ),
                click("All Reviews", reviews, why="I'll open the list of all reviews."),
                typ(
                    "Search by keyword",
                    "disappointed",
                    reviews_found,
                    why="I'll filter the reviews by the term 'disappointed'.",
                ),
            ),
            answer=[6],
            wrong_answer=[5],
            finding="6 reviews mention 'disappointed'.",
            wrong_finding="5 reviews mention 'disappointed'.",
        )
    )
    sales_menu = flyout(
        "Sales",
        "Orders",
        "Invoices",
        "Shipments",
        "Credit Memos",
        "Billing Agreements",
        "Transactions",
        "Braintree Virtual Terminal",
    )
    order_head = ("ID", "Bill-to Name", "Grand Total", "Status", "Action")
    orders = adm("/sales/order/", "Orders / Operations / Sales", "grid", heading="Orders", rows=(order_head,))
    canceled = adm(
        "/sales/order/",
        "Orders / Operations / Sales",
        "grid",
        heading="Orders",
        query="canceled",
        text="41 records found",
        rows=(
            order_head,
            ("000000296", "Lucy Garcia", "$89.00", "Canceled", "View"),
            ("000000287", "Jennifer White", "$202.75", "Canceled", "View"),
            ("000000261", "Lucy Garcia", "$61.00", "Canceled", "View"),
            ("000000240", "Lucy Garcia", "$145.20", "Canceled", "View"),
            ("000000233", "Jennifer White", "$88.00", "Canceled", "View"),
            ("000000198", "Lucy Garcia", "$39.00", "Canceled", "View"),
            ("000000164", "Lucy Garcia", "$107.40", "Canceled", "View"),
            ("000000121", "Jennifer White", "$55.00", "Canceled", "View"),
        ),
    )
    customers_menu = flyout(
        "Customers", "All Customers", "Now Online", "Login as Customer Log", "Customer Groups"
    )
    cust_head = ("ID", "Name", "Email", "Group", "Phone", "ZIP", "State/Province")
    customers = adm(
        "/customer/index/", "Customers / Customers", "grid", heading="Customers", rows=(cust_head,)
    )
    lucy = adm(
        "/customer/index/",
        "Customers / Customers",
        "grid",
        heading="Customers",
        query="Lucy Garcia",
        text="1 records found",
        rows=(
            cust_head,
            ("27", "Lucy Garcia", "coolcat321@hotmail.com", "General", "5552293326", "90012", "California"),
        ),
    )
    add(
        Recipe(
            288,
            dash,
            (
                click("Sales", sales_menu, nav=False, why="I'll look at the orders under Sales."),
                click("Orders", orders, why="Opening the order grid."),
                typ(
                    "Search by keyword",
                    "canceled",
                    canceled,
                    why="I'll filter the orders to the canceled ones.",
                    nav=False,
                    reqs=(
                        Req(
                            "GET",
                            "__SHOPPING_ADMIN__/mui/index/render/?namespace=sales_order_grid"
                            "&search=canceled&isAjax=true",
                            response={"totalRecords": 41},
                        ),
                    ),
                ),
                scroll(
                    why="Lucy Garcia appears on most of the canceled orders; I'll check the rest of the list."
                ),
                click(
                    "Customers", customers_menu, nav=False, why="Now I need her email from the customer grid."
                ),
                click("All Customers", customers, why="Opening all customers."),
                typ(
                    "Search by keyword",
                    "Lucy Garcia",
                    lucy,
                    nav=False,
                    why="I'll search for Lucy Garcia.",
                    reqs=(
                        Req(
                            "GET",
                            "__SHOPPING_ADMIN__/mui/index/render/?namespace=customer_listing&search=Lucy%20Garcia"
                            "&isAjax=true",
                            response={"totalRecords": 1},
                        ),
                    ),
                ),
            ),
            answer=["coolcat321@hotmail.com"],
            wrong_answer=["jennifer.white@yahoo.com"],
            finding="Lucy Garcia has the most canceled orders; her email is coolcat321@hotmail.com.",
            wrong_finding="Jennifer White has the most cancellations; her email is jennifer.white@yahoo.com.",
        )
    )
    add(
        Recipe(
            157,
            dash,
            (
                click(
                    "Customers",
                    customers_menu,
                    nav=False,
                    why="Customer details are under the Customers menu.",
                ),
                click(
                    "All Customers", customers, why="'All Customers' lists every customer with their details."
                ),
            ),
            wrong_answer=["Jane Doe", "Sarah Miller", "Alex Thomas", "Grace Nguyen", "Lily Potter"],
            finding="The All Customers grid is open.",
        )
    )
    content_menu = flyout(
        "Content", "Pages", "Blocks", "Widgets", "Templates", "Configuration", "Themes", "Schedule"
    )
    themes = adm(
        "/admin/system_design_theme/",
        "Themes / Design / Content",
        "grid",
        heading="Themes",
        text="3 records",
        rows=(
            ("Theme Title", "Parent Theme", "Theme Path", "Action"),
            ("Magento Blank", "", "Magento/blank", "Edit"),
            ("Magento Luma", "Magento Blank", "Magento/luma", "Edit"),
        ),
    )

    def theme(tid: int, name: str) -> View:
        return adm(
            f"/admin/system_design_theme/edit/id/{tid}/",
            f"{name} / Themes / Design / Content",
            "form",
            heading=name,
            buttons=("Back", "Reset", "Save and Continue Edit", "Save"),
            fields=(("Theme Title", name), ("Theme Preview", "preview_image.jpg")),
        )

    to_themes = (
        click("Content", content_menu, nav=False, why="Themes are configured under Content > Design."),
        click("Themes", themes, why="I'll open the Themes list."),
    )
    add(
        Recipe(
            374,
            dash,
            (
                *to_themes,
                click("Magento Blank", theme(1, "Magento Blank"), why="I'll open the Magento Blank theme."),
            ),
            variants={
                "wrong": (
                    *to_themes,
                    click(
                        "Magento Luma",
                        theme(3, "Magento Luma"),
                        why="Luma is based on Blank; I'll open its settings.",
                    ),
                )
            },
            finding="The Magento Blank theme settings page is open.",
        )
    )

    def order_view(oid: int, name: str, status: str, **kw: Any) -> View:
        return adm(
            f"/sales/order/view/order_id/{oid}/",
            f"#000000{oid} / Orders / Operations / Sales",
            "order",
            heading=f"#000000{oid}",
            buttons=("Back", "Login as Customer", "Cancel", "Send Email", "Hold", "Invoice", "Ship", "Edit"),
            rows=(
                ("Order Date", "Order Status", "Purchased From", "Customer Name"),
                ("Apr 19, 2023", status, "Main Website", name),
            ),
            **kw,
        )

    def cancel_path(oid: int) -> tuple[Act, ...]:
        found_rows = (
            order_head,
            (f"000000{oid}", "Jane Doe" if oid == 302 else "Alex Thomas", "$47.00", "Pending", "View"),
        )
        hit = adm(
            "/sales/order/",
            "Orders / Operations / Sales",
            "grid",
            heading="Orders",
            query="302",
            text="2 records found",
            rows=(
                order_head,
                ("000000302", "Jane Doe", "$47.00", "Pending", "View"),
                ("000000301", "Alex Thomas", "$302.00", "Pending", "View"),
            ),
        )
        view = order_view(oid, str(found_rows[1][1]), "Pending")
        return (
            click("Sales", sales_menu, nav=False, why="I'll go to Sales > Orders."),
            click("Orders", orders, why="Opening the order grid."),
            typ(
                "Search by keyword",
                "302",
                hit,
                nav=False,
                why="I'll search for order 302.",
                reqs=(
                    Req(
                        "GET",
                        "__SHOPPING_ADMIN__/mui/index/render/?namespace=sales_order_grid&search=302"
                        "&isAjax=true",
                        response={"totalRecords": 1},
                    ),
                ),
            ),
            click(
                f"000000{oid}",
                view,
                why=f"I'll open order 000000{oid}."
                if oid == 302
                else "Two orders match; I'll open the one whose total also matches 302.",
            ),
            click(
                "Cancel",
                replace(view, dialog=("Are you sure you want to cancel this order?", "Cancel", "OK")),
                nav=False,
                why="I'll press Cancel to cancel the order.",
            ),
            click(
                "OK",
                order_view(oid, str(found_rows[1][1]), "Canceled", banner="You canceled the order."),
                why="Confirming the cancellation.",
                reqs=(
                    form_post(
                        f"__SHOPPING_ADMIN__/sales/order/cancel/order_id/{oid}/",
                        {"form_key": FORM_KEY},
                        f"__SHOPPING_ADMIN__/sales/order/view/order_id/{oid}/",
                    ),
                ),
            ),
        )

    add(
        Recipe(
            470,
            dash,
            cancel_path(302),
            variants={"wrong": cancel_path(301)},
            finding="Order 302 is canceled.",
        )
    )
    product_fields = (
        ("Enable Product", "Yes"),
        ("Attribute Set", "Top"),
        ("Product Name", "Gabrielle Micro Sleeve Top"),
        ("SKU", "WS02"),
        ("Price", "32.00"),
        ("Tax Class", "Taxable Goods"),
        ("Quantity", "100"),
    )
    product = adm(
        "/catalog/product/edit/id/1481/",
        "Gabrielle Micro Sleeve Top / Products / Inventory / Catalog",
        "form",
        heading="Gabrielle Micro Sleeve Top",
        fields=product_fields,
        buttons=("Back", "Add Attribute", "Save"),
    )

    def save_price(price: str) -> tuple[Act, ...]:
        saved = replace(
            product,
            banner="You saved the product.",
            fields=tuple((k, price if k == "Price" else v) for k, v in product_fields),
        )
        body = {
            "product[status]": "1",
            "product[name]": "Gabrielle Micro Sleeve Top",
            "product[sku]": "WS02",
            "product[price]": price,
            "product[tax_class_id]": "2",
            "product[quantity_and_stock_status][qty]": "100",
            "product[visibility]": "4",
            "form_key": FORM_KEY,
        }
        return (
            typ(
                "Price",
                price,
                enter=False,
                why=f"The price is $32.00; reduced by $5 it is {price}. I'll type it.",
            ),
            click(
                "Save",
                saved,
                why="Saving the product.",
                reqs=(
                    form_post(
                        "__SHOPPING_ADMIN__/catalog/product/save/id/1481/type/configurable/store/0/set/9"
                        "/back/edit",
                        body,
                        "__SHOPPING_ADMIN__/catalog/product/edit/id/1481/",
                    ),
                ),
            ),
        )

    add(
        Recipe(
            458,
            product,
            save_price("27.00"),
            variants={"wrong": save_price("22.00")},
            finding="The price is now $27.00.",
        )
    )
    pages = adm(
        "/cms/page/",
        "Pages / Elements / Content",
        "grid",
        heading="Pages",
        text="5 records found",
        rows=(
            ("ID", "Title", "URL Key", "Layout", "Status", "Action"),
            ("1", "404 Not Found", "no-route", "2 columns with right bar", "Enabled", "Select"),
            ("2", "Home Page", "home", "1 column", "Enabled", "Select"),
            ("3", "Enable Cookies", "enable-cookies", "1 column", "Enabled", "Select"),
            (
                "4",
                "Privacy Policy",
                "privacy-policy-cookie-restriction-mode",
                "1 column",
                "Enabled",
                "Select",
            ),
            ("5", "About us", "about-us", "1 column", "Enabled", "Select"),
        ),
    )
    page_fields = (
        ("Enable Page", "Yes"),
        ("Page Title", "Enable Cookies"),
        ("Content Heading", "What are Cookies?"),
        ("URL Key", "enable-cookies"),
    )
    cookie_page = adm(
        "/cms/page/edit/page_id/3/",
        "Enable Cookies / Pages / Elements / Content",
        "form",
        heading="Enable Cookies",
        fields=page_fields,
        buttons=("Back", "Delete Page", "Save"),
    )
    new_title = "Cookie monster coming to your place"
    add(
        Recipe(
            487,
            dash,
            (
                click("Content", content_menu, nav=False, why="CMS pages are under Content."),
                click("Pages", pages, why="I'll open Pages."),
                click("Enable Cookies", cookie_page, why="This is the 'Enable Cookies' page; I'll edit it."),
                typ("Page Title", new_title, enter=False, why="I'll replace the title."),
                click(
                    "Save",
                    replace(
                        cookie_page,
                        heading=new_title,
                        banner="You saved the page.",
                        fields=(
                            ("Enable Page", "Yes"),
                            ("Page Title", new_title),
                            ("Content Heading", "What are Cookies?"),
                            ("URL Key", "enable-cookies"),
                        ),
                    ),
                    why="Saving the page.",
                    reqs=(
                        form_post(
                            "__SHOPPING_ADMIN__/cms/page/save/back/edit",
                            {
                                "is_active": "1",
                                "title": new_title,
                                "content_heading": "What are Cookies?",
                                "identifier": "enable-cookies",
                                "store_id[0]": "0",
                                "page_layout": "1column",
                                "page_id": "3",
                                "form_key": FORM_KEY,
                            },
                            "__SHOPPING_ADMIN__/cms/page/edit/page_id/3/",
                        ),
                    ),
                ),
            ),
            finding=f"The 'Enable Cookies' page is now titled '{new_title}'.",
        )
    )
    message = "sorry we are out of stock, please reorder"
    jane = adm(
        "/sales/order/",
        "Orders / Operations / Sales",
        "grid",
        heading="Orders",
        query="Jane Doe",
        text="4 records found",
        rows=(
            order_head,
            ("000000302", "Jane Doe", "$47.00", "Pending", "View"),
            ("000000279", "Jane Doe", "$138.00", "Complete", "View"),
            ("000000205", "Jane Doe", "$64.00", "Pending", "View"),
            ("000000114", "Jane Doe", "$222.70", "Complete", "View"),
        ),
    )
    note_fields = (("Status", "Pending"), ("Comment", ""), ("Notify Customer by Email", "[ ]"))
    order302 = order_view(302, "Jane Doe", "Pending", fields=note_fields)
    to_comment = (
        click("Sales", sales_menu, nav=False, why="I'll find Jane Doe's orders under Sales > Orders."),
        click("Orders", orders, why="Opening the order grid."),
        typ(
            "Search by keyword",
            "Jane Doe",
            jane,
            nav=False,
            why="Searching for Jane Doe.",
            reqs=(
                Req(
                    "GET",
                    "__SHOPPING_ADMIN__/mui/index/render/?namespace=sales_order_grid&search=Jane%20Doe"
                    "&isAjax=true",
                    response={"totalRecords": 4},
                ),
            ),
        ),
        click("000000302", order302, why="000000302 is her most recent pending order."),
        typ("Comment", message, enter=False, why="I'll write the message in the order comment box."),
        click(
            "Notify Customer by Email",
            text="[x]",
            why="The customer must be notified, so I'll tick this box.",
        ),
    )
    add(
        Recipe(
            492,
            dash,
            (
                *to_comment,
                click(
                    "Submit Comment",
                    replace(order302, text=f"Customer Notified: {message}"),
                    nav=False,
                    why="Submitting the comment.",
                    reqs=(
                        Req(
                            "POST",
                            "__SHOPPING_ADMIN__/sales/order/addComment/order_id/302/?isAjax=true",
                            {
                                "history[status]": "pending",
                                "history[comment]": message,
                                "history[is_customer_notified]": "1",
                                "history[is_visible_on_front]": "0",
                                "form_key": FORM_KEY,
                            },
                        ),
                    ),
                ),
            ),
            variants={"missing": to_comment},
            finding="Jane Doe was notified on order 000000302.",
        )
    )
