"""Life Payments: utility bills inside WeChat (in the style of WeChat's own Life Payments
service, Me > Services > Life Payments). It runs in WeChat's process (``com.tencent.mm``,
``AppBrandUI``) as a web view of generic ``android.view.View`` nodes under WeChat's title bar and
capsule (see ``ride.MiniProgram``).

Pages: the tabs "Home" and "Records". "Home" has the city, a tile per kind of bill
("Electricity", "Water", "Gas", "Mobile Top-Up") and "My Accounts": each account with its
provider, name, number and the amount due (the phone credit for a mobile number). A tile opens
the accounts of its kind and "Add Account": the provider (a choice of the city's providers of
that kind), the account number, an optional name; "Save" asks the provider
(``provider_accounts``, the bills the providers have on record) and adds the account with its
bill, or says that no such account exists. An account's page shows the bill (amount due, due
date), the credit, "Pay Bill" ("Top Up" for a phone), "Payment Records" and "Remove Account"
(confirmed). "Pay Bill" opens the payment page with the amount due filled in (it can be
changed; a mobile number has quick amounts), "Pay Now" the WeChat Pay sheet
(``wechat.WeChatPay``). A payment writes a ``payments`` record and pays off the bill: what is
beyond the amount due becomes credit. "Records" lists every payment, newest first, filtered by
kind.

Money is in cents.
"""

from __future__ import annotations

from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps.miniprogram import MiniProgram, next_number, node, when
from tasklang.envs.phoneworld.apps.wechat import choice_dialog, label_of, money, parse_amount, stamp
from tasklang.envs.phoneworld.widgets import View

KINDS = (
    ("electricity", "Electricity"),
    ("water", "Water"),
    ("gas", "Gas"),
    ("mobile", "Mobile Top-Up"),
)
TOP_UPS = (1000, 2000, 3000, 5000, 10000, 20000)  # quick amounts of a mobile top-up, cents
MAX_PAYMENT = 500000  # cents: the most one payment may be
PAY_FLOW = ("pay", "pay_bill")


def kind_name(kind: Any) -> str:
    return "Mobile" if kind == "mobile" else label_of(KINDS, kind)


def amount_text(cents: int) -> str:
    """An amount as the amount field holds it: "86.40"."""
    return f"{cents // 100}.{cents % 100:02d}"


class BillsApp(MiniProgram):
    model = "bills"
    label = "Life Payments"
    home = "home"
    tabs = (("home", "Home"), ("records", "Records"))

    # ============================================================== reading
    def account(self, ctx: Ctx, number: Any) -> dict[str, Any] | None:
        return ctx.find("accounts", lambda a: a.get("account_no") == number)

    def providers(self, ctx: Ctx, kind: str) -> list[str]:
        city = str(ctx.setting("city") or "")
        return [
            str(p.get("name"))
            for p in ctx.records("providers")
            if p.get("kind") == kind and (not city or p.get("city") in (None, "", city))
        ]

    def owed(self, account: dict[str, Any]) -> str:
        if account.get("kind") == "mobile":
            return f"Balance {money(account.get('balance'))}"
        due = int(account.get("due") or 0)
        return f"Due {money(due)}" if due > 0 else "No bill due"

    # ============================================================== tab pages
    def screen_home(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.page(ctx, self.label, "home")
        tiles = [node(text, "open_kind", key, rid="kind-tile", height=150) for key, text in KINDS]
        rows = [
            self.field_row("City", str(ctx.setting("city") or "Not set")),
            node(rid="kind-grid", horizontal=True, height=150, children=tiles[:2]),
            node(rid="kind-grid", horizontal=True, height=150, children=tiles[2:]),
            node("My Accounts", rid="section-title", height=90),
        ]
        accounts = ctx.records("accounts")
        rows += [self.account_card(a) for a in accounts] or [
            node(
                "No accounts yet. Choose a kind above to add one.", rid="accounts-empty", height=200
            )
        ]
        screen.rows = rows
        return screen

    def account_card(self, account: dict[str, Any]) -> View:
        name = str(account.get("name") or "")
        return node(
            key="open_account",
            arg=account.get("account_no"),
            rid="account-item",
            children=[
                node(
                    horizontal=True,
                    height=90,
                    children=[
                        node(kind_name(account.get("kind")), rid="account-kind", weight=0.4),
                        node(self.owed(account), rid="account-due", weight=0.6),
                    ],
                ),
                node(str(account.get("provider") or ""), rid="account-provider", height=70),
                node(
                    horizontal=True,
                    height=70,
                    children=[
                        *([node(name, rid="account-name", weight=0.4)] if name else []),
                        node(
                            str(account.get("account_no")),
                            rid="account-number",
                            desc="account",
                            weight=0.6 if name else 1.0,
                        ),
                    ],
                ),
            ],
        )

    def screen_records(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.page(ctx, "Payment Records", "records")
        kind = ctx.form("kind")
        number = route.arg("account_no")
        screen.header = [
            node(
                rid="record-filter",
                horizontal=True,
                height=110,
                children=[node("All", "filter", "", rid="filter-chip", selected=not kind)]
                + [
                    node(kind_name(key), "filter", key, rid="filter-chip", selected=kind == key)
                    for key, _ in KINDS
                ],
            )
        ]
        payments = [
            p
            for p in ctx.records("payments")
            if (not kind or p.get("kind") == kind) and (not number or p.get("account_no") == number)
        ]
        payments.sort(key=lambda p: str(p.get("paid_at") or ""), reverse=True)
        screen.rows = [self.payment_card(p) for p in payments] or [
            node("No payment records", rid="records-empty", height=300)
        ]
        return screen

    def payment_card(self, payment: dict[str, Any]) -> View:
        """A payment record: the kind of bill and the amount, the provider and the account,
        the record's number, when it was paid and its status."""
        status = str(payment.get("status") or "success")
        return node(
            rid="record-item",
            children=[
                node(
                    horizontal=True,
                    height=90,
                    children=[
                        node(kind_name(payment.get("kind")), rid="record-kind", weight=0.5),
                        node(
                            money(payment.get("amount")),
                            rid="record-amount",
                            desc="payment",
                            weight=0.5,
                        ),
                    ],
                ),
                node(
                    horizontal=True,
                    height=70,
                    children=[
                        node(str(payment.get("provider") or ""), rid="record-provider", weight=0.6),
                        node(str(payment.get("account_no")), rid="record-account", weight=0.4),
                    ],
                ),
                node(f"No. {payment.get('payment_no')}", rid="record-no", height=70),
                node(
                    horizontal=True,
                    height=70,
                    children=[
                        node(when(payment.get("paid_at")), rid="record-time"),
                        node(
                            {"success": "Paid", "processing": "Processing", "failed": "Failed"}.get(
                                status, status
                            ),
                            rid="record-status",
                        ),
                    ],
                ),
            ],
        )

    def on_filter(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("kind", str(arg))

    # ============================================================== kinds and accounts
    def on_open_kind(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("kind", kind=str(arg))

    def screen_kind(self, ctx: Ctx, route: Route) -> Screen:
        kind = str(route.arg("kind"))
        screen = self.page(ctx, label_of(KINDS, kind))
        accounts = [a for a in ctx.records("accounts") if a.get("kind") == kind]
        screen.rows = [self.account_card(a) for a in accounts] or [
            node(f"No {kind_name(kind).lower()} accounts yet", rid="accounts-empty", height=200)
        ]
        screen.footer = [node("Add Account", "add_account", kind, rid="add-account", height=150)]
        return screen

    def on_open_account(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("account", account_no=str(arg))

    def screen_account(self, ctx: Ctx, route: Route) -> Screen:
        account = self.account(ctx, route.arg("account_no"))
        screen = self.page(ctx, "Account")
        if account is None:
            screen.rows = [node("This account was removed", rid="account-missing", height=300)]
            return screen
        mobile = account.get("kind") == "mobile"
        rows = [
            node(kind_name(account.get("kind")), rid="account-kind", height=100),
            self.field_row("Provider", str(account.get("provider") or "")),
            self.field_row(
                "Phone Number" if mobile else "Account No.", str(account.get("account_no"))
            ),
        ]
        if account.get("name"):
            rows.append(self.field_row("Name", str(account.get("name"))))
        if account.get("holder"):
            rows.append(self.field_row("Account Holder", str(account.get("holder"))))
        if mobile:
            rows.append(self.field_row("Balance", money(account.get("balance"))))
        else:
            due = int(account.get("due") or 0)
            rows.append(node(f"Amount Due {money(due)}", rid="account-amount-due", height=140))
            if due > 0 and account.get("due_date"):
                rows.append(self.field_row("Due Date", str(account.get("due_date"))))
            if int(account.get("balance") or 0):
                rows.append(self.field_row("Credit", money(account.get("balance"))))
        rows += [
            self.field_row(
                "Payment Records", "", "open_account_records", account.get("account_no")
            ),
            node(
                "Remove Account",
                "remove_ask",
                account.get("account_no"),
                rid="remove-account",
                height=120,
            ),
        ]
        screen.rows = rows
        screen.footer = [
            node(
                "Top Up" if mobile else "Pay Bill",
                "open_pay",
                account.get("account_no"),
                rid="account-pay",
                height=150,
            )
        ]
        return screen

    def on_open_account_records(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("records", account_no=str(arg))

    def on_remove_ask(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                "Remove this account?",
                message=f"Account {arg} is removed from My Accounts. Its payment records are kept.",
                buttons=[("Remove", "remove_account", arg), ("Cancel", None, None)],
            )
        )

    def on_remove_account(self, ctx: Ctx, arg: Any) -> None:
        account = self.account(ctx, arg)
        if account is None:
            return
        ctx.delete("accounts", account)
        ctx.back()
        ctx.toast("Account removed")

    # ============================================================== adding an account
    def on_add_account(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.push("add", kind=str(arg))
        options = self.providers(ctx, str(arg))
        if len(options) == 1:
            ctx.set_form("provider", options[0], route)

    def screen_add(self, ctx: Ctx, route: Route) -> Screen:
        kind = str(route.arg("kind"))
        mobile = kind == "mobile"
        screen = self.page(ctx, f"Add {kind_name(kind)} Account")
        provider = ctx.form("provider")
        screen.rows = [
            self.field_row("Provider", provider or "Select", "choose_provider", kind),
            node("Phone Number" if mobile else "Account No.", rid="field-label", height=80),
            View(
                w.EDIT,
                rid="account-input",
                edit="number",
                hint="Enter the 11-digit phone number"
                if mobile
                else "Enter the account number on your bill",
                height=130,
            ),
            node("Name (optional)", rid="field-label", height=80),
            View(w.EDIT, rid="name-input", edit="name", hint="e.g. Home, Parents", height=130),
        ]
        screen.footer = [node("Save", "save_account", kind, rid="save-account", height=150)]
        return screen

    def on_choose_provider(self, ctx: Ctx, arg: Any) -> None:
        options = tuple((name, name) for name in self.providers(ctx, str(arg)))
        if not options:
            ctx.toast("No providers in this city")
            return
        ctx.dialog(choice_dialog("Select Provider", options, ctx.form("provider"), "set_provider"))

    def on_set_provider(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("provider", str(arg))

    def on_save_account(self, ctx: Ctx, arg: Any) -> None:
        kind = str(arg)
        provider = ctx.form("provider")
        number = "".join(ctx.form("number").split())
        if not provider:
            ctx.toast("Select a provider")
            return
        if not number:
            ctx.toast("Enter the account number" if kind != "mobile" else "Enter the phone number")
            return
        if self.account(ctx, number) is not None:
            ctx.toast("This account is already in My Accounts")
            return
        record = ctx.find(
            "provider_accounts",
            lambda a: (
                a.get("account_no") == number
                and a.get("provider") == provider
                and a.get("kind") == kind
            ),
        )
        if record is None and kind == "mobile" and number.isdigit() and len(number) == 11:
            record = {"holder": None, "due": 0, "due_date": None, "balance": 0}
        if record is None:
            ctx.dialog(
                Dialog(
                    "Account not found",
                    message=f"{provider} has no account {number}. Check the number on your bill.",
                    buttons=[("OK", None, None)],
                )
            )
            return
        ctx.add(
            "accounts",
            {
                "account_no": number,
                "kind": kind,
                "provider": provider,
                "name": ctx.form("name").strip(),
                "holder": record.get("holder"),
                "due": int(record.get("due") or 0),
                "due_date": record.get("due_date"),
                "balance": int(record.get("balance") or 0),
            },
        )
        ctx.hide_keyboard()
        ctx.replace("account", account_no=number)
        ctx.toast("Account added")

    # ============================================================== paying
    def on_open_pay(self, ctx: Ctx, arg: Any) -> None:
        account = self.account(ctx, arg)
        if account is None:
            return
        route = ctx.push("pay_bill", account_no=str(arg))
        due = int(account.get("due") or 0)
        if account.get("kind") != "mobile" and due > 0:
            ctx.set_form("amount", amount_text(due), route)

    def screen_pay_bill(self, ctx: Ctx, route: Route) -> Screen:
        account = self.account(ctx, route.arg("account_no"))
        mobile = bool(account and account.get("kind") == "mobile")
        screen = self.page(ctx, "Top Up" if mobile else "Payment")
        if account is None:
            screen.rows = [node("This account was removed", rid="account-missing", height=300)]
            return screen
        rows = [
            node(str(account.get("provider") or ""), rid="pay-provider", height=90),
            node(str(account.get("account_no")), rid="pay-account", height=80),
            node(self.owed(account), rid="pay-due", height=90),
            node("Amount ($)", rid="field-label", height=80),
            View(
                w.EDIT,
                rid="amount-input",
                edit="amount",
                hint="Enter amount",
                on_enter="pay_now",
                height=140,
            ),
        ]
        if mobile:
            chips = [
                node(
                    money(c),
                    "quick_amount",
                    c,
                    rid="amount-chip",
                    selected=ctx.form("amount") == amount_text(c),
                )
                for c in TOP_UPS
            ]
            rows += [
                node(rid="amount-chips", horizontal=True, height=120, children=chips[:3]),
                node(rid="amount-chips", horizontal=True, height=120, children=chips[3:]),
            ]
        screen.rows = rows
        screen.footer = [node("Pay Now", "pay_now", rid="pay-now", height=150)]
        return screen

    def on_quick_amount(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("amount", amount_text(int(arg)))

    def on_pay_now(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None
        account = self.account(ctx, route.arg("account_no"))
        if account is None:
            return
        amount = parse_amount(ctx.form("amount"))
        if amount is None or amount <= 0:
            ctx.toast("Enter a valid amount")
            return
        if amount > MAX_PAYMENT:
            ctx.toast(f"The most you can pay at once is {money(MAX_PAYMENT)}")
            return
        ctx.hide_keyboard()
        ctx.push("pay", account_no=account.get("account_no"), amount=amount)

    def screen_pay(self, ctx: Ctx, route: Route) -> Screen:
        account = self.account(ctx, route.arg("account_no")) or {}
        payee = f"{account.get('provider', '')} · {kind_name(account.get('kind'))}"
        return self.pay_sheet(ctx, payee, int(route.arg("amount")), "bills_pay")

    def on_bills_pay(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None and route.screen == "pay"
        account = self.account(ctx, route.arg("account_no"))
        amount = int(route.arg("amount"))
        if account is None or not self.charge(ctx, amount):
            return
        due = int(account.get("due") or 0)
        paid_off = min(due, amount)
        ctx.update(
            "accounts",
            account,
            due=due - paid_off,
            balance=int(account.get("balance") or 0) + amount - paid_off,
        )
        payment_no = next_number(ctx.records("payments"), "payment_no", "P", 50000)
        ctx.add(
            "payments",
            {
                "payment_no": payment_no,
                "account_no": account.get("account_no"),
                "kind": account.get("kind"),
                "provider": account.get("provider"),
                "amount": amount,
                "paid_at": stamp(ctx.now),
                "status": "success",
            },
        )
        stack = ctx.phone.stacks.get(self.model, [])
        while len(stack) > 1 and stack[-1].screen in PAY_FLOW:
            ctx.back()
        ctx.push("paid", payment_no=payment_no)

    def screen_paid(self, ctx: Ctx, route: Route) -> Screen:
        payment = ctx.find("payments", lambda p: p.get("payment_no") == route.arg("payment_no"))
        screen = self.page(ctx, "Payment Result", up=False)
        if payment is None:
            return screen
        screen.rows = [
            node("Payment Successful", rid="result-title", height=160),
            node(money(payment.get("amount")), rid="result-amount", height=160),
            self.field_row("Provider", str(payment.get("provider") or "")),
            self.field_row("Account", str(payment.get("account_no"))),
            self.field_row("Time", when(payment.get("paid_at"))),
        ]
        screen.footer = [node("Done", "result_done", rid="result-done", height=150)]
        return screen

    def on_result_done(self, ctx: Ctx, arg: Any) -> None:
        ctx.back()


APP = BillsApp
