"""Coffee: a coffee-chain mini program inside WeChat (in the style of the Luckin and Starbucks
ones). It runs in WeChat's process: the package is ``com.tencent.mm`` and the activity
WeChat's ``AppBrandUI``; the pages are a web view (``android.webkit.WebView``) of generic
``android.view.View`` nodes with text, under WeChat's native title bar with the mini program
capsule ("More", "Close"). It is not on the launcher: WeChat opens it (Discover > Mini Programs,
the mini program search, a shared card in a chat), and closing its last page returns to WeChat.

Pages: the four tab pages "Home", "Menu", "Orders" and "Me"; the store list (distance, open or
closed: choosing one makes it the ``default_store``, the store the menu and checkout use; without
one, the nearest open store); the menu by category; an item's options (size, milk, sugar,
espresso shots, quantity) and "Add to Cart"; the cart; checkout ("Confirm Order": "Pickup" or
"Delivery", the store, a coupon, the payment) and "Place Order"; the WeChat Pay sheet (WeChat's
own: it takes the money from the WeChat wallet or a card, see ``wechat.WeChatPay``), or the
member balance; the order list and an order's details with "Cancel order" (confirmed; the
refund goes back through WeChat Pay within days, so nothing else changes) and "Order Again".

Placing an order writes the ``orders`` record (``items`` lists one name per cup, as the order
list summarises them) and one ``order_lines`` record per cart line, and marks the coupon used.
The cart is kept as it was (the tasks forbid deleting records, and the mini program keeps a cart
until you clear it); its lines are removed only from the cart page. Money is in cents.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps.miniprogram import APPBRAND_UI, MiniProgram, node, when
from tasklang.envs.phoneworld.apps.wechat import (
    PKG,
    choice_dialog,
    label_of,
    money,
    stamp,
)
from tasklang.envs.phoneworld.widgets import View

TABS = (("home", "Home"), ("menu", "Menu"), ("orders", "Orders"), ("me", "Me"))
CATEGORIES = (
    ("coffee", "Coffee"),
    ("tea", "Tea"),
    ("non_coffee", "Non-Coffee"),
    ("food", "Food"),
    ("seasonal", "Seasonal"),
)
SIZES = (("small", "Small"), ("medium", "Medium"), ("large", "Large"))
SIZE_PRICE = {"small": -50, "medium": 0, "large": 60}  # against the medium size
MILKS = (
    ("whole", "Whole Milk"),
    ("skim", "Skim Milk"),
    ("oat", "Oat Milk"),
    ("soy", "Soy Milk"),
    ("none", "No Milk"),
)
MILK_PRICE = {"oat": 60, "soy": 40}
SUGARS = (("none", "No Sugar"), ("less", "Less Sugar"), ("normal", "Normal Sugar"))
SHOT_PRICE = 80  # each espresso shot beyond the first
MAX_SHOTS = 4
MAX_QUANTITY = 99
DELIVERY_FEE = 200
STATUS = {
    "placed": "Placed",
    "preparing": "Preparing",
    "ready": "Ready for Pickup",
    "delivered": "Completed",
    "cancelled": "Cancelled",
}
STATUS_NOTE = {
    "placed": "Your order has been sent to the store.",
    "preparing": "The store is preparing your order.",
    "ready": "Your order is ready.",
    "delivered": "Enjoy your coffee!",
    "cancelled": "Order cancelled. The refund goes back to your original payment method "
    "within 1-3 business days.",
}
PAYMENTS = (("wechat_pay", "WeChat Pay"), ("member_balance", "Member Balance"))
MODES = (("pickup", "Pickup"), ("delivery", "Delivery"))
CHECKOUT_FLOW = ("pay", "checkout", "cart", "item", "coupons", "stores")

_ORDER_NO = re.compile(r"^([A-Za-z]*)(\d+)$")


# ------------------------------------------------------------------ values
def unit_price(item: dict[str, Any], size: str, milk: str, shots: int) -> int:
    """One cup's price: the menu price is for the item's own size."""
    base = int(item.get("price") or 0)
    own = str(item.get("size") or "medium")
    return (
        base
        + SIZE_PRICE.get(size, 0)
        - SIZE_PRICE.get(own, 0)
        + MILK_PRICE.get(milk, 0)
        + SHOT_PRICE * max(0, shots - 1)
    )


def is_food(item: dict[str, Any] | None) -> bool:
    return bool(item) and (item or {}).get("category") == "food"


def spec(line: dict[str, Any], food: bool) -> str:
    """A cart or order line's options: "Large · Oat Milk · Less Sugar"."""
    if food:
        return ""
    parts = [
        label_of(SIZES, line.get("size") or "medium"),
        label_of(MILKS, line.get("milk") or "whole"),
        label_of(SUGARS, line.get("sugar") or "normal"),
    ]
    shots = int(line.get("shots") or 1)
    if shots > 1:
        parts.append(f"{shots} shots")
    return " · ".join(parts)


def km(value: Any) -> str:
    return f"{float(value or 0):.1f} km"


def hours(store: dict[str, Any]) -> str:
    return f"{str(store.get('opens') or '')[:5]}-{str(store.get('closes') or '')[:5]}"


class CoffeeApp(MiniProgram):
    model = "coffee"
    host = "wechat"
    package = PKG
    label = "Coffee"
    activity = APPBRAND_UI
    home = "home"
    tabs = TABS

    # ============================================================== reading
    def menu_item(self, ctx: Ctx, name: Any) -> dict[str, Any] | None:
        return ctx.find("menu", lambda m: m.get("name") == name)

    def store(self, ctx: Ctx) -> dict[str, Any] | None:
        """The store orders go to: the chosen one, else the nearest open store."""
        stores = ctx.records("stores")
        chosen = ctx.setting("default_store")
        found = next((s for s in stores if s.get("name") == chosen), None)
        if found is not None:
            return found
        by_distance = sorted(stores, key=lambda s: float(s.get("distance_km") or 0))
        return next((s for s in by_distance if s.get("open_now", True)), None) or next(
            iter(by_distance), None
        )

    def order(self, ctx: Ctx, order_no: Any) -> dict[str, Any] | None:
        return ctx.find("orders", lambda o: o.get("order_no") == order_no)

    def lines_of(self, ctx: Ctx, order: dict[str, Any]) -> list[dict[str, Any]]:
        """An order's lines: its ``order_lines``, else one per item name of its summary."""
        no = order.get("order_no")
        lines = [line for line in ctx.records("order_lines") if line.get("order_no") == no]
        if lines:
            return lines
        counts = Counter(str(i) for i in order.get("items") or [])
        return [
            {"item": name, "quantity": n, "price": None, "derived": True}
            for name, n in counts.items()
        ]

    def cart_total(self, ctx: Ctx) -> int:
        return sum(int(c.get("price") or 0) for c in ctx.records("cart"))

    def cart_count(self, ctx: Ctx) -> int:
        return sum(int(c.get("quantity") or 1) for c in ctx.records("cart"))

    def coupons_for(self, ctx: Ctx, subtotal: int) -> list[dict[str, Any]]:
        today = ctx.now.date().isoformat()
        return [
            c
            for c in ctx.records("coupons")
            if not c.get("used")
            and str(c.get("expires") or "9999") >= today
            and int(c.get("min_spend") or 0) <= subtotal
        ]

    # ============================================================== page frame
    # ============================================================== tab pages
    def screen_home(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.page(ctx, self.label, "home")
        store = self.store(ctx)
        points = int(ctx.setting("member_points") or 0)
        screen.rows = [
            node("Freshly brewed, every day", rid="home-banner", height=300),
            node(
                rid="member-card",
                horizontal=True,
                height=130,
                children=[
                    node("Points", rid="member-points-label"),
                    node(str(points), rid="member-points"),
                ],
            ),
            node(
                key="open_stores",
                rid="home-store",
                horizontal=True,
                height=130,
                children=[
                    node(
                        str(store.get("name")) if store else "Select a store",
                        rid="home-store-name",
                        weight=0.7,
                    ),
                    node(
                        km(store.get("distance_km")) if store else "",
                        rid="home-store-distance",
                        weight=0.3,
                    ),
                ],
            ),
            node("Order Now", "tab", "menu", rid="order-now", height=200),
        ]
        return screen

    def screen_menu(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.page(ctx, "Menu", "menu")
        store = self.store(ctx)
        menu = ctx.records("menu")
        present = [
            key for key, _ in CATEGORIES if any(m.get("category", "coffee") == key for m in menu)
        ]
        category = ctx.form("category") or (present[0] if present else "coffee")
        store_bar = node(
            rid="store-bar",
            horizontal=True,
            height=140,
            children=[
                node(
                    str(store.get("name")) if store else "No store nearby",
                    rid="store-name",
                    weight=0.45,
                ),
                node(
                    km(store.get("distance_km")) if store else "", rid="store-distance", weight=0.2
                ),
                node(
                    ("Open" if store.get("open_now", True) else "Closed") if store else "",
                    rid="store-status",
                    weight=0.15,
                ),
                node("Change", "open_stores", rid="store-change", weight=0.2),
            ],
        )
        categories = node(
            rid="category-bar",
            horizontal=True,
            height=120,
            children=[
                node(text, "category", key, rid="category", selected=key == category)
                for key, text in CATEGORIES
                if key in present
            ],
        )
        screen.header = [store_bar, categories]
        items = [m for m in menu if m.get("category", "coffee") == category]
        screen.rows = [self.item_row(m) for m in items] or [
            node("Nothing on the menu here yet", rid="menu-empty", height=200)
        ]
        count = self.cart_count(ctx)
        screen.footer = [
            node(
                rid="cart-bar",
                horizontal=True,
                height=150,
                children=[
                    node(
                        f"Cart ({count})" if count else "Cart",
                        "open_cart",
                        rid="cart-icon",
                        weight=0.3,
                    ),
                    node(
                        money(self.cart_total(ctx)) if count else "Your cart is empty",
                        rid="cart-total",
                        weight=0.4,
                    ),
                    node("Checkout", "checkout", rid="cart-checkout", weight=0.3),
                ],
            )
        ]
        return screen

    def item_row(self, item: dict[str, Any]) -> View:
        available = item.get("available", True)
        kids = [
            node(str(item.get("name")), rid="menu-item-name", desc="menu item", height=90),
            node(money(item.get("price")), rid="menu-item-price", height=70),
        ]
        if item.get("calories") is not None:
            kids.append(node(f"{item['calories']} kcal", rid="menu-item-calories", height=60))
        if not available:
            kids.append(node("Sold Out", rid="menu-item-soldout", height=60))
        return node(
            key="open_item" if available else None,
            arg=item.get("name"),
            rid="menu-item",
            children=kids,
        )

    def on_category(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("category", str(arg))

    def screen_orders(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.page(ctx, "Orders", "orders")
        orders = sorted(
            ctx.records("orders"), key=lambda o: str(o.get("placed_at") or ""), reverse=True
        )
        screen.rows = [self.order_card(ctx, o) for o in orders] or [
            node("No orders yet", rid="orders-empty", height=300)
        ]
        return screen

    def order_card(self, ctx: Ctx, order: dict[str, Any]) -> View:
        """An order in the list: number and status, store, time, what was ordered, total,
        pickup or delivery, paid or not, the coupon used, and the cups of each line."""
        counts = Counter(str(i) for i in order.get("items") or [])
        summary = ", ".join(f"{name} ×{n}" for name, n in counts.items())
        no = order.get("order_no")
        lines = [line for line in ctx.records("order_lines") if line.get("order_no") == no]
        extra = [
            node(
                horizontal=True,
                height=70,
                children=[
                    node(label_of(MODES, order.get("pickup") or "pickup"), rid="order-mode"),
                    node("Paid" if order.get("paid", True) else "Unpaid", rid="order-paid"),
                ],
            )
        ]
        if order.get("coupon") is not None:
            extra.append(node(f"Coupon {order['coupon']}", rid="order-coupon", height=70))
        extra += [self.card_line(line) for line in lines]
        return node(
            key="open_order",
            arg=order.get("order_no"),
            rid="order-item",
            children=[
                node(
                    horizontal=True,
                    height=90,
                    children=[
                        node(f"Order No. {order.get('order_no')}", rid="order-no", weight=0.6),
                        node(
                            STATUS.get(str(order.get("status")), ""), rid="order-status", weight=0.4
                        ),
                    ],
                ),
                node(str(order.get("store") or ""), rid="order-store", height=70),
                node(when(order.get("placed_at")), rid="order-time", height=70),
                node(summary, rid="order-items", height=70),
                node(money(order.get("total")), rid="order-total", height=80),
                *extra,
            ],
        )

    def card_line(self, line: dict[str, Any]) -> View:
        """One line of an order, as its card lists it: the item, its options, the cups."""
        return node(
            rid="order-card-line",
            horizontal=True,
            height=70,
            children=[
                node(str(line.get("item")), rid="line-item", weight=0.25),
                node(label_of(SIZES, line.get("size") or "medium"), rid="line-size", weight=0.15),
                node(label_of(MILKS, line.get("milk") or "whole"), rid="line-milk", weight=0.15),
                node(
                    label_of(SUGARS, line.get("sugar") or "normal"), rid="line-sugar", weight=0.15
                ),
                node(f"×{line.get('quantity') or 1}", rid="line-qty", weight=0.1),
                node(money(line.get("price")), rid="line-price", weight=0.15),
            ],
        )

    def screen_me(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.page(ctx, "Me", "me")
        store = self.store(ctx)
        payment = str(ctx.setting("payment") or "wechat_pay")
        screen.rows = [
            node(
                rid="member-card",
                horizontal=True,
                height=130,
                children=[
                    node("Points", rid="member-points-label"),
                    node(str(int(ctx.setting("member_points") or 0)), rid="member-points"),
                ],
            ),
            self.field_row("Member Balance", money(ctx.setting("member_balance") or 0)),
            self.field_row("Coupons", str(len(self.coupons_for(ctx, 10**9))), "open_coupons"),
            self.field_row("My Store", str(store.get("name")) if store else "", "open_stores"),
            self.field_row(
                "Payment Method", label_of(PAYMENTS, payment), "choose_payment", "setting"
            ),
        ]
        return screen

    def field_row(self, name: str, value: str, key: str | None = None, arg: Any = None) -> View:
        return node(
            key=key,
            arg=arg,
            rid="field-row",
            horizontal=True,
            height=130,
            children=[
                node(name, rid="field-name", weight=0.55),
                node(value, rid="field-value", weight=0.45),
            ],
        )

    # ============================================================== stores
    def on_open_stores(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("stores")

    def screen_stores(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.page(ctx, "Select a Store")
        chosen = self.store(ctx)
        stores = sorted(ctx.records("stores"), key=lambda s: float(s.get("distance_km") or 0))
        screen.rows = [
            node(
                key="pick_store",
                arg=s.get("name"),
                rid="store-item",
                selected=chosen is not None and s.get("name") == chosen.get("name"),
                children=[
                    node(str(s.get("name")), rid="store-name", desc="store", height=90),
                    node(str(s.get("address") or ""), rid="store-address", height=70),
                    node(
                        horizontal=True,
                        height=70,
                        children=[
                            node(km(s.get("distance_km")), rid="store-distance"),
                            node(
                                "Open" if s.get("open_now", True) else "Closed", rid="store-status"
                            ),
                            node(hours(s), rid="store-hours"),
                        ],
                    ),
                ],
            )
            for s in stores
        ] or [node("No stores nearby", rid="stores-empty", height=300)]
        return screen

    def on_pick_store(self, ctx: Ctx, arg: Any) -> None:
        store = ctx.find("stores", lambda s: s.get("name") == arg)
        if store is None:
            return
        if not store.get("open_now", True):
            ctx.toast(f"{arg} is closed now ({hours(store)})")
            return
        if ctx.setting("default_store") != arg:
            ctx.set("default_store", arg)
        ctx.back()

    # ============================================================== an item's options
    def on_open_item(self, ctx: Ctx, arg: Any) -> None:
        item = self.menu_item(ctx, arg)
        if item is None or not item.get("available", True):
            ctx.toast("Sold out")
            return
        ctx.push("item", name=str(arg))

    def choices(self, ctx: Ctx, item: dict[str, Any]) -> tuple[str, str, str, int, int]:
        """The item page's size, milk, sugar, shots and quantity."""
        food = is_food(item)
        size = ctx.form("size") or str(item.get("size") or "medium")
        milk = ctx.form("milk") or ("none" if food else "whole")
        sugar = ctx.form("sugar") or "normal"
        shots = int(ctx.form("shots") or 1)
        quantity = int(ctx.form("quantity") or 1)
        return size, milk, sugar, shots, quantity

    def screen_item(self, ctx: Ctx, route: Route) -> Screen:
        item = self.menu_item(ctx, route.arg("name"))
        screen = self.page(ctx, str(route.arg("name")))
        if item is None:
            screen.rows = [
                node("This item is no longer on the menu", rid="item-missing", height=300)
            ]
            return screen
        size, milk, sugar, shots, quantity = self.choices(ctx, item)
        rows = [
            node(str(item.get("name")), rid="item-name", desc="menu item", height=120),
            node(money(item.get("price")), rid="item-price", height=90),
        ]
        if item.get("calories") is not None:
            rows.append(node(f"{item['calories']} kcal", rid="item-calories", height=70))
        if not is_food(item):
            rows += self.option_group("Size", "size", SIZES, size)
            rows += self.option_group("Milk", "milk", MILKS, milk)
            rows += self.option_group("Sugar", "sugar", SUGARS, sugar)
            if item.get("category", "coffee") == "coffee":
                rows += self.stepper("Espresso Shots", "shots", shots, "shots")
        rows += self.stepper("Quantity", "quantity", quantity, "quantity")
        screen.rows = rows
        total = unit_price(item, size, milk, shots) * quantity
        screen.footer = [
            node(
                rid="item-footer",
                horizontal=True,
                height=150,
                children=[
                    node(money(total), rid="item-total", weight=0.5),
                    node(
                        "Add to Cart",
                        "add_to_cart",
                        item.get("name"),
                        rid="add-to-cart",
                        weight=0.5,
                    ),
                ],
            )
        ]
        return screen

    def option_group(
        self, title: str, name: str, options: tuple[tuple[str, str], ...], current: str
    ) -> list[View]:
        return [
            node(title, rid="option-title", height=80),
            node(
                rid=f"option-{name}",
                horizontal=True,
                height=110,
                children=[
                    node(text, "choose", (name, key), rid="option", selected=key == current)
                    for key, text in options
                ],
            ),
        ]

    def stepper(self, title: str, name: str, value: int, what: str) -> list[View]:
        return [
            node(
                rid=f"stepper-{name}",
                horizontal=True,
                height=120,
                children=[
                    node(title, rid="stepper-title", weight=0.4),
                    View(
                        w.VIEW,
                        text="-",
                        desc=f"Fewer {what}" if what == "shots" else "Decrease quantity",
                        rid="stepper-minus",
                        clickable=True,
                        focusable=True,
                        on_click="step",
                        arg=(name, -1),
                        weight=0.2,
                    ),
                    node(str(value), rid="stepper-value", weight=0.2),
                    View(
                        w.VIEW,
                        text="+",
                        desc=f"More {what}" if what == "shots" else "Increase quantity",
                        rid="stepper-plus",
                        clickable=True,
                        focusable=True,
                        on_click="step",
                        arg=(name, 1),
                        weight=0.2,
                    ),
                ],
            )
        ]

    def on_choose(self, ctx: Ctx, arg: Any) -> None:
        name, value = arg
        ctx.set_form(name, value)

    def on_step(self, ctx: Ctx, arg: Any) -> None:
        name, delta = arg
        top = MAX_SHOTS if name == "shots" else MAX_QUANTITY
        value = int(ctx.form(name) or 1) + int(delta)
        ctx.set_form(name, str(max(1, min(top, value))))

    def on_add_to_cart(self, ctx: Ctx, arg: Any) -> None:
        item = self.menu_item(ctx, arg)
        if item is None:
            return
        size, milk, sugar, shots, quantity = self.choices(ctx, item)
        self.add_line(ctx, item, size, milk, sugar, shots, quantity)
        ctx.back()
        ctx.toast("Added to cart")

    def add_line(
        self,
        ctx: Ctx,
        item: dict[str, Any],
        size: str,
        milk: str,
        sugar: str,
        shots: int,
        quantity: int,
    ) -> None:
        """Put cups in the cart: onto the line with the same options, or a new line."""
        unit = unit_price(item, size, milk, shots)
        same = ctx.find(
            "cart",
            lambda c: (
                (c.get("item"), c.get("size"), c.get("milk"), c.get("sugar"), c.get("shots", 1))
                == (item.get("name"), size, milk, sugar, shots)
            ),
        )
        if same is not None:
            total = min(MAX_QUANTITY, int(same.get("quantity") or 1) + quantity)
            ctx.update("cart", same, quantity=total, price=unit * total)
            return
        ctx.add(
            "cart",
            {
                "item": item.get("name"),
                "size": size,
                "milk": milk,
                "sugar": sugar,
                "shots": shots,
                "quantity": quantity,
                "price": unit * quantity,
            },
        )

    # ============================================================== cart
    def on_open_cart(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("cart")

    def screen_cart(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.page(ctx, "Cart")
        cart = ctx.records("cart")
        if cart:
            screen.actions.insert(
                0,
                View(
                    w.TEXT,
                    text="Clear",
                    rid=f"{PKG}:id/cart_clear",
                    clickable=True,
                    focusable=True,
                    on_click="clear_ask",
                    weight=0.2,
                ),
            )
        rows = []
        for line in cart:
            food = is_food(self.menu_item(ctx, line.get("item")))
            rows.append(
                node(
                    rid="cart-line",
                    children=[
                        View(
                            w.VIEW,
                            text=str(line.get("item")),
                            rid=f"{PKG}:id/cart_item",
                            height=90,
                        ),
                        node(spec(line, food), rid="cart-line-spec", height=70),
                        node(
                            horizontal=True,
                            height=110,
                            children=[
                                node(money(line.get("price")), rid="cart-line-price", weight=0.4),
                                View(
                                    w.VIEW,
                                    text="-",
                                    desc="Decrease quantity",
                                    rid="stepper-minus",
                                    clickable=True,
                                    focusable=True,
                                    on_click="cart_step",
                                    arg=(line, -1),
                                    weight=0.2,
                                ),
                                node(
                                    str(line.get("quantity") or 1), rid="stepper-value", weight=0.2
                                ),
                                View(
                                    w.VIEW,
                                    text="+",
                                    desc="Increase quantity",
                                    rid="stepper-plus",
                                    clickable=True,
                                    focusable=True,
                                    on_click="cart_step",
                                    arg=(line, 1),
                                    weight=0.2,
                                ),
                            ],
                        ),
                    ],
                )
            )
        screen.rows = rows or [node("Your cart is empty", rid="cart-empty", height=300)]
        screen.footer = [
            node(
                rid="cart-footer",
                horizontal=True,
                height=150,
                children=[
                    node(f"Total {money(self.cart_total(ctx))}", rid="cart-total", weight=0.6),
                    node("Checkout", "checkout", rid="cart-checkout", weight=0.4),
                ],
            )
        ]
        return screen

    def on_cart_step(self, ctx: Ctx, arg: Any) -> None:
        line, delta = arg
        if not any(c is line for c in ctx.records("cart")):
            return
        quantity = int(line.get("quantity") or 1) + int(delta)
        if quantity <= 0:
            ctx.delete("cart", line)
            return
        quantity = min(MAX_QUANTITY, quantity)
        unit = int(line.get("price") or 0) // max(1, int(line.get("quantity") or 1))
        item = self.menu_item(ctx, line.get("item"))
        if item is not None:
            unit = unit_price(
                item, str(line.get("size")), str(line.get("milk")), int(line.get("shots") or 1)
            )
        ctx.update("cart", line, quantity=quantity, price=unit * quantity)

    def on_clear_ask(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                "Clear the cart?",
                buttons=[("Clear", "clear_cart", None), ("Cancel", None, None)],
            )
        )

    def on_clear_cart(self, ctx: Ctx, arg: Any) -> None:
        for line in list(ctx.records("cart")):
            ctx.delete("cart", line)

    # ============================================================== checkout
    def on_checkout(self, ctx: Ctx, arg: Any) -> None:
        if not ctx.records("cart"):
            ctx.toast("Your cart is empty")
            return
        ctx.push("checkout")

    def amounts(self, ctx: Ctx, mode: str, code: str) -> tuple[int, int, int, int]:
        """Subtotal, discount, delivery fee and total of the cart."""
        subtotal = self.cart_total(ctx)
        coupon = next((c for c in self.coupons_for(ctx, subtotal) if c.get("code") == code), None)
        discount = min(subtotal, int(coupon.get("discount") or 0)) if coupon else 0
        fee = DELIVERY_FEE if mode == "delivery" else 0
        return subtotal, discount, fee, subtotal - discount + fee

    def screen_checkout(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.page(ctx, "Confirm Order")
        mode = ctx.form("mode") or "pickup"
        code = ctx.form("coupon")
        payment = ctx.form("payment") or str(ctx.setting("payment") or "wechat_pay")
        store = self.store(ctx)
        subtotal, discount, fee, total = self.amounts(ctx, mode, code)
        coupon = ctx.find("coupons", lambda c: c.get("code") == code) if discount else None
        usable = self.coupons_for(ctx, subtotal)
        rows = [
            node(
                rid="order-mode",
                horizontal=True,
                height=130,
                children=[
                    node(
                        "Pickup", "set_mode", "pickup", rid="mode-pickup", selected=mode == "pickup"
                    ),
                    node(
                        "Delivery",
                        "set_mode",
                        "delivery",
                        rid="mode-delivery",
                        selected=mode == "delivery",
                    ),
                ],
            ),
            node(
                rid="checkout-store",
                horizontal=True,
                height=150,
                children=[
                    node(
                        weight=0.8,
                        children=[
                            node(
                                str(store.get("name")) if store else "Select a store",
                                rid="checkout-store-name",
                                height=80,
                            ),
                            node(
                                str(store.get("address") or "") if store else "",
                                rid="checkout-store-address",
                                height=70,
                            ),
                        ],
                    ),
                    node("Change", "open_stores", rid="checkout-store-change", weight=0.2),
                ],
            ),
            self.field_row("Pickup Time" if mode == "pickup" else "Delivery Time", "ASAP"),
        ]
        for line in ctx.records("cart"):
            food = is_food(self.menu_item(ctx, line.get("item")))
            rows.append(
                node(
                    rid="checkout-line",
                    horizontal=True,
                    height=130,
                    children=[
                        node(
                            weight=0.6,
                            children=[
                                node(str(line.get("item")), rid="checkout-line-name", height=70),
                                node(spec(line, food), rid="checkout-line-spec", height=60),
                            ],
                        ),
                        node(f"×{line.get('quantity') or 1}", rid="checkout-line-qty", weight=0.15),
                        node(money(line.get("price")), rid="checkout-line-price", weight=0.25),
                    ],
                )
            )
        coupon_text = (
            str(coupon.get("title"))
            if coupon
            else f"{len(usable)} available"
            if usable
            else "None available"
        )
        rows += [
            self.field_row(
                "Coupon", coupon_text, "open_coupons", "select" if usable or coupon else None
            ),
            self.field_row(
                "Payment Method", label_of(PAYMENTS, payment), "choose_payment", "checkout"
            ),
            self.field_row("Subtotal", money(subtotal)),
        ]
        if discount:
            rows.append(self.field_row("Discount", f"-{money(discount)}"))
        if fee:
            rows.append(self.field_row("Delivery Fee", money(fee)))
        screen.rows = rows
        screen.footer = [
            node(
                rid="checkout-footer",
                horizontal=True,
                height=150,
                children=[
                    node(f"Total {money(total)}", rid="checkout-total", weight=0.55),
                    node("Place Order", "place_order", rid="place-order", weight=0.45),
                ],
            )
        ]
        return screen

    def on_set_mode(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("mode", str(arg))

    def on_choose_payment(self, ctx: Ctx, arg: Any) -> None:
        if arg == "checkout":
            current = ctx.form("payment") or str(ctx.setting("payment") or "wechat_pay")
        else:
            current = str(ctx.setting("payment") or "wechat_pay")
        options = tuple(
            (
                key,
                f"{text} ({money(ctx.setting('member_balance') or 0)})"
                if key == "member_balance"
                else text,
            )
            for key, text in PAYMENTS
        )
        dialog = choice_dialog("Payment Method", options, current, "set_payment")
        for item in dialog.items:
            item.arg = (arg, item.arg)
        ctx.dialog(dialog)

    def on_set_payment(self, ctx: Ctx, arg: Any) -> None:
        where, value = arg
        if where == "checkout":
            ctx.set_form("payment", value)
        elif ctx.setting("payment") != value:
            ctx.set("payment", value)

    def on_place_order(self, ctx: Ctx, arg: Any) -> None:
        if not ctx.records("cart"):
            ctx.toast("Your cart is empty")
            return
        store = self.store(ctx)
        if store is None:
            ctx.toast("Select a store first")
            return
        if not store.get("open_now", True):
            ctx.toast(f"{store.get('name')} is closed now ({hours(store)})")
            return
        mode = ctx.form("mode") or "pickup"
        code = ctx.form("coupon")
        _, discount, _, total = self.amounts(ctx, mode, code)
        payment = ctx.form("payment") or str(ctx.setting("payment") or "wechat_pay")
        args: dict[str, Any] = {
            "store": store.get("name"),
            "mode": mode,
            "coupon": code if discount else "",
            "total": total,
        }
        if payment == "member_balance":
            balance = int(ctx.setting("member_balance") or 0)
            if balance < total:
                ctx.dialog(
                    Dialog(
                        "Insufficient Member Balance",
                        message=f"Your member balance is {money(balance)}. Choose WeChat Pay "
                        "to pay for this order.",
                        buttons=[("OK", None, None)],
                    )
                )
                return
            ctx.dialog(
                Dialog(
                    "Pay with Member Balance",
                    message=f"Pay {money(total)} with your member balance ({money(balance)})?",
                    buttons=[("Confirm", "member_pay", args), ("Cancel", None, None)],
                )
            )
            return
        ctx.push("pay", **args)

    def on_member_pay(self, ctx: Ctx, arg: Any) -> None:
        balance = int(ctx.setting("member_balance") or 0)
        total = int(arg["total"])
        if balance < total:
            return
        ctx.set("member_balance", balance - total)
        self.place(ctx, arg)

    def screen_pay(self, ctx: Ctx, route: Route) -> Screen:
        return self.pay_sheet(ctx, self.label, int(route.arg("total")), "coffee_pay")

    def on_coffee_pay(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None and route.screen == "pay"
        args = dict(route.args)
        if self.charge(ctx, int(args["total"])):
            self.place(ctx, args)

    def next_order_no(self, ctx: Ctx) -> str:
        prefix, number, width = "A", 1000, 4
        for o in ctx.records("orders"):
            m = _ORDER_NO.match(str(o.get("order_no") or ""))
            if m and int(m[2]) >= number:
                prefix, number, width = m[1] or prefix, int(m[2]), len(m[2])
        return f"{prefix}{number + 1:0{width}d}"

    def place(self, ctx: Ctx, args: dict[str, Any]) -> None:
        """Write the paid order and its lines, then show its details."""
        order_no = self.next_order_no(ctx)
        cart = ctx.records("cart")
        items: list[str] = []
        for line in cart:
            quantity = int(line.get("quantity") or 1)
            items += [str(line.get("item"))] * quantity
            ctx.add(
                "order_lines",
                {
                    "order_no": order_no,
                    "item": line.get("item"),
                    "size": line.get("size") or "medium",
                    "milk": line.get("milk") or "whole",
                    "sugar": line.get("sugar") or "normal",
                    "quantity": quantity,
                    "price": int(line.get("price") or 0),
                },
            )
        code = str(args.get("coupon") or "")
        ctx.add(
            "orders",
            {
                "order_no": order_no,
                "items": items,
                "total": int(args["total"]),
                "status": "placed",
                "pickup": str(args.get("mode") or "pickup"),
                "store": args.get("store"),
                "placed_at": stamp(ctx.now),
                "paid": True,
                "coupon": code or None,
            },
        )
        coupon = ctx.find("coupons", lambda c: c.get("code") == code) if code else None
        if coupon is not None:
            ctx.update("coupons", coupon, used=True)
        stack = ctx.phone.stacks.get(self.model, [])
        while len(stack) > 1 and stack[-1].screen in CHECKOUT_FLOW:
            ctx.back()
        ctx.push("order", order_no=order_no)
        ctx.toast("Payment successful")

    # ============================================================== coupons
    def on_open_coupons(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("coupons", mode=str(arg or "view"))

    def screen_coupons(self, ctx: Ctx, route: Route) -> Screen:
        selecting = route.arg("mode") == "select"
        screen = self.page(ctx, "Coupons")
        subtotal = self.cart_total(ctx)
        usable = {id(c) for c in self.coupons_for(ctx, subtotal if selecting else 10**9)}
        today = ctx.now.date().isoformat()
        rows = []
        if selecting:
            rows.append(node("Don't use a coupon", "use_coupon", "", rid="coupon-none", height=120))
        for c in ctx.records("coupons"):
            if c.get("used"):
                state = "Used"
            elif str(c.get("expires") or "9999") < today:
                state = "Expired"
            elif id(c) not in usable:
                state = f"Spend {money(c.get('min_spend'))} to use"
            else:
                state = "Use" if selecting else "Available"
            can_use = selecting and state == "Use"
            rows.append(
                node(
                    key="use_coupon" if can_use else None,
                    arg=c.get("code"),
                    rid="coupon-item",
                    children=[
                        node(
                            str(c.get("title") or ""), rid="coupon-title", desc="coupon", height=90
                        ),
                        node(f"Save {money(c.get('discount'))}", rid="coupon-discount", height=70),
                        node(
                            f"Min. spend {money(c.get('min_spend') or 0)}",
                            rid="coupon-min",
                            height=60,
                        ),
                        node(f"Expires {c.get('expires') or ''}", rid="coupon-expires", height=60),
                        node(state, rid="coupon-state", height=70),
                    ],
                )
            )
        if not ctx.records("coupons"):
            rows.append(node("No coupons", rid="coupons-empty", height=300))
        screen.rows = rows
        return screen

    def on_use_coupon(self, ctx: Ctx, arg: Any) -> None:
        stack = ctx.phone.stacks.get(self.model, [])
        checkout = stack[-2] if len(stack) >= 2 and stack[-2].screen == "checkout" else None
        if checkout is not None:
            ctx.set_form("coupon", str(arg), checkout)
        ctx.back()

    # ============================================================== orders
    def on_open_order(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("order", order_no=str(arg))

    def screen_order(self, ctx: Ctx, route: Route) -> Screen:
        order = self.order(ctx, route.arg("order_no"))
        screen = self.page(ctx, "Order Details")
        if order is None:
            screen.rows = [node("Order not found", rid="order-missing", height=300)]
            return screen
        status = str(order.get("status") or "placed")
        lines = []
        for line in self.lines_of(ctx, order):
            food = is_food(self.menu_item(ctx, line.get("item")))
            kids = [node(str(line.get("item")), rid="order-line-name", height=80)]
            if not line.get("derived"):
                kids.append(node(spec(line, food), rid="order-line-spec", height=60))
            kids.append(
                node(
                    horizontal=True,
                    height=70,
                    children=[
                        node(f"×{line.get('quantity') or 1}", rid="order-line-qty"),
                        node(
                            money(line["price"]) if line.get("price") is not None else "",
                            rid="order-line-price",
                        ),
                    ],
                )
            )
            lines.append(node(rid="order-line", children=kids))
        rows = [
            node(STATUS.get(status, status), rid="order-status", height=130),
            node(STATUS_NOTE.get(status, ""), rid="order-status-note", height=110),
            node(f"Order No. {order.get('order_no')}", rid="order-no", height=90),
            self.field_row("Store", str(order.get("store") or "")),
            self.field_row(
                "Pickup / Delivery", "Delivery" if order.get("pickup") == "delivery" else "Pickup"
            ),
            node(rid="order-detail", children=lines),
        ]
        if order.get("coupon"):
            rows.append(self.field_row("Coupon", str(order["coupon"])))
        rows += [
            self.field_row("Total", money(order.get("total"))),
            self.field_row("Placed At", when(order.get("placed_at"))),
            self.field_row("Payment", "Paid" if order.get("paid", True) else "Unpaid"),
        ]
        screen.rows = rows
        if status == "placed":
            screen.footer = [
                node(
                    "Cancel order",
                    "cancel_ask",
                    order.get("order_no"),
                    rid="order-cancel",
                    height=150,
                )
            ]
        elif status in ("ready", "delivered", "cancelled"):
            screen.footer = [
                node(
                    "Order Again",
                    "order_again",
                    order.get("order_no"),
                    rid="order-again",
                    height=150,
                )
            ]
        return screen

    def on_cancel_ask(self, ctx: Ctx, arg: Any) -> None:
        order = self.order(ctx, arg)
        if order is None or order.get("status") != "placed":
            return
        ctx.dialog(
            Dialog(
                "Cancel this order?",
                message=f"Order {arg} will be cancelled and {money(order.get('total'))} refunded "
                "to your original payment method within 1-3 business days. This cannot be "
                "undone.",
                buttons=[("Confirm", "cancel_order", arg), ("Keep Order", None, None)],
            )
        )

    def on_cancel_order(self, ctx: Ctx, arg: Any) -> None:
        order = self.order(ctx, arg)
        if order is None or order.get("status") != "placed":
            return
        ctx.update("orders", order, status="cancelled")
        ctx.toast("Order cancelled")

    def on_order_again(self, ctx: Ctx, arg: Any) -> None:
        order = self.order(ctx, arg)
        if order is None:
            return
        missing = []
        for line in self.lines_of(ctx, order):
            item = self.menu_item(ctx, line.get("item"))
            if item is None or not item.get("available", True):
                missing.append(str(line.get("item")))
                continue
            food = is_food(item)
            self.add_line(
                ctx,
                item,
                str(line.get("size") or item.get("size") or "medium"),
                str(line.get("milk") or ("none" if food else "whole")),
                str(line.get("sugar") or "normal"),
                1,
                int(line.get("quantity") or 1),
            )
        if missing:
            ctx.toast(f"Not available now: {', '.join(missing)}")
        ctx.push("cart")


APP = CoffeeApp
