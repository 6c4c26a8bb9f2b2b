"""Reference solutions of the Contacts (Simple Contacts Pro) tasks."""

from __future__ import annotations

from tasklang.envs.phoneworld.solutions.base import Driver, reference


def _first_and_surname(name: str) -> tuple[str, str]:
    parts = name.strip().rsplit(" ", 1)
    return (parts[0], parts[1]) if len(parts) == 2 else (parts[0], "")


@reference("contacts.add_coworker")
def add_coworker(d: Driver) -> None:
    p = d.params
    first, surname = _first_and_surname(p["who"])
    d.tap(desc="Create new contact")
    d.tap(desc="Toggle favorite")  # star it while the top of the form is in view
    d.type(first, rid="contact_first_name")
    d.type(surname, rid="contact_surname")
    d.type(p["number"], rid="contact_number")
    if not d.has(rid="contact_number_type", text="Mobile"):
        d.tap(rid="contact_number_type")
        d.tap(text="Mobile", cls="RadioButton")
    _fill(d, p["mail"], "contact_email")
    _fill(d, p["bday"], "contact_event")
    _fill(d, p["firm"], "contact_organization_company")
    d.scroll_to(rid="contact_group")
    d.tap(rid="contact_group")
    d.tap(text="Work", cls="RadioButton")
    d.tap(desc="Save")
    d.done()


def _fill(d: Driver, text: str, rid: str) -> None:
    """Type into a field of the edit form, scrolling down to it first."""
    d.scroll_to(rid=rid)
    d.type(text, rid=rid)


@reference("contacts.delete_missing_contact")
def delete_missing_contact(d: Driver) -> None:
    ghost = d.params["ghost"]
    d.type(ghost, rid="top_toolbar_search")
    d.enter()
    if d.has(rid="contact_name", text=ghost):  # never, by construction: delete it if it is
        d.tap(rid="contact_name", text=ghost)
        d.tap(desc="Delete")
        d.tap(text="Yes")
        d.done()
        return
    d.done("infeasible")
