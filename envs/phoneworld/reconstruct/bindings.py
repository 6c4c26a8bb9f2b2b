"""Bindings that come with tasklang, for recorded apps the task library has models of.

Each one names the package it applies to; ``tasklang reconstruct`` attaches it to the graph
of that package. The texts in ``has`` and ``toggles`` are the recorded apps' own (AutoDroid's
Simple Mobile Tools recordings).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tasklang.envs.phoneworld.reconstruct.binding import BindingError, parse_binding

SMS_MESSENGER: dict[str, Any] = {
    "package": "com.simplemobiletools.smsmessenger",
    "model": "messages",
    "screens": [
        {
            # the conversation list: search box, toolbar buttons, one row per conversation
            "has": ["Search", "Settings", "About", "More options"],
            "items": {
                "collection": "threads",
                "row": {"texts": 3},
                "fields": ["{contact_name|address}", "{snippet}", "{last_activity:%d.%m}"],
                "sort": "-last_activity",
                "where": {"archived": False},
            },
        }
    ],
    "toggles": [
        {"text": "Show a character counter at writing messages", "setting": "show_character_counter"},
        {"text": "Remove accents and diacritics at sending messages", "setting": "remove_accents"},
        {"text": "Send message on pressing Enter", "setting": "send_on_enter"},
        {"text": "Enable delivery reports", "setting": "delivery_reports"},
        {"text": "Send long messages as MMS", "setting": "send_long_as_mms"},
    ],
    "actions": [
        # the conversation's Delete asks this; the recording only ever answered No. Yes
        # deletes the conversation with its messages and closes the dialog and the
        # conversation (Simple SMS Messenger's behaviour)
        {"has": ["Are you sure you want to delete all messages of this conversation?"],
         "tap": "Yes", "delete": True, "back": 2,
         "also": [{"collection": "received", "match": {"from": "address"}},
                  {"collection": "sent", "match": {"to": "address"}}]},
    ],
    "routes": [
        # hybrid mode: where each recorded screen is in the hand-written Messages app
        {"has": ["Search", "Settings", "About", "More options"],
         "stack": [{"screen": "main"}], "returns": True},
        {"has": ["Are you sure you want to delete all messages of this conversation?"],
         "stack": [{"screen": "main"}, {"screen": "thread", "args": {"address": "{address}"}}]},
        {"has": ["Conversation details", "Block number"],
         "stack": [{"screen": "main"}, {"screen": "thread", "args": {"address": "{address}"}}]},
        {"has": ["Conversation details", "CONVERSATION NAME"],
         "stack": [{"screen": "main"}, {"screen": "thread", "args": {"address": "{address}"}},
                   {"screen": "details", "args": {"address": "{address}"}}]},
        {"has": ["Delete", "Dial number", "Type a message…"],
         "stack": [{"screen": "main"}, {"screen": "thread", "args": {"address": "{address}"}}]},
        {"has": ["Settings", "COLOR CUSTOMIZATION"],
         "stack": [{"screen": "main"}, {"screen": "settings"}]},
        {"has": ["About", "SUPPORT"], "stack": [{"screen": "main"}, {"screen": "about"}]},
    ],
}  # fmt: skip

CONTACTS: dict[str, Any] = {
    "package": "com.simplemobiletools.contacts.pro",
    "model": "contacts",
    "screens": [
        {
            # the Contacts tab: search box, toolbar buttons, one button per contact's name
            "has": ["Search", "Sort by", "Filter", "More options", "Create new contact"],
            "items": {
                "collection": "people",
                "row": {"after": "More options", "cls": "android.widget.Button"},
                "fields": ["{name}"],
                "sort": "name",
            },
        }
    ],
    "toggles": [
        {"text": "Start name with surname", "setting": "start_name_with_surname"},
        {"text": "Show phone numbers", "setting": "show_phone_numbers"},
        {"text": "Show a dialpad button on the main screen", "setting": "show_dialpad_button"},
    ],
    "actions": [
        # the contact's page: the star, and Delete's confirmation (the recording answered No)
        {"has": ["Toggle favorite", "Edit contact"], "tap": "Toggle favorite", "flip": "starred"},
        {"has": ["Are you sure you want to proceed with the deletion?"], "tap": "Yes",
         "delete": True, "back": 2},
    ],
    "routes": [
        # hybrid mode: where each recorded screen is in the hand-written Contacts app
        {"has": ["Search", "Sort by", "Filter", "More options", "Create new contact"],
         "stack": [{"screen": "main"}], "returns": True},
        {"has": ["Search", "Sort by", "Filter", "More options", "Create new contact"],
         "stack": [{"screen": "main", "args": {"tab": "contacts"}}], "returns": True},
        {"has": ["Search", "Add favorites"],
         "stack": [{"screen": "main", "args": {"tab": "favorites"}}]},
        {"has": ["Search", "Create group"], "stack": [{"screen": "main", "args": {"tab": "groups"}}]},
        {"has": ["Toggle favorite", "Edit contact", "Send SMS"],
         "stack": [{"screen": "main"}, {"screen": "view", "args": {"name": "{name}"}}]},
        {"has": ["Are you sure you want to proceed with the deletion?"],
         "stack": [{"screen": "main"}, {"screen": "view", "args": {"name": "{name}"}}]},
        {"has": ["First name", "Surname", "Number", "Save"],
         "stack": [{"screen": "main"}, {"screen": "view", "args": {"name": "{name}"}},
                   {"screen": "edit", "args": {"name": "{name}"}}]},
        {"has": ["First name", "Surname", "Number", "Save"],
         "stack": [{"screen": "main"}, {"screen": "edit"}]},
        {"has": ["Settings", "COLOR CUSTOMIZATION"],
         "stack": [{"screen": "main"}, {"screen": "settings"}]},
    ],
}  # fmt: skip

DIALER: dict[str, Any] = {
    "package": "com.simplemobiletools.dialer",
    "model": "phone",
    "screens": [
        {
            # the Call History tab: one row per call (name, time, duration; a missed call's
            # row has no duration, and is drawn from the same template)
            "has": ["Search", "Filter", "Clear call history", "More options", "Call History"],
            "items": {
                "collection": "calls",
                "row": {"texts": [3, 2]},
                "fields": ["{name|number}", "{timestamp:%d.%m}", "{duration:%M:%S}"],
                "sort": "-timestamp",
            },
        }
    ],
    "toggles": [
        # AutoDroid cut texts at 50 characters; these are the recorded texts
        {"text": "Group subsequent calls with the same number at the", "setting": "group_subsequent_calls"},
        {"text": "Enable vibrations on dialpad button clicks", "setting": "dialpad_vibration"},
        {"text": "Enable beeps on dialpad button clicks", "setting": "dialpad_beeps"},
        {"text": "Start name with surname", "setting": "start_name_with_surname"},
        {"text": "Open the dialpad by default when the app opens", "setting": "open_dialpad_at_launch"},
        {"text": "Hide dialpad numbers", "setting": "hide_dialpad_numbers"},
        {"text": "Disable proximity sensor during calls", "setting": "disable_proximity_sensor"},
    ],
    "routes": [
        # hybrid mode: where each recorded screen is in the hand-written Phone app
        {"has": ["Search", "Filter", "Clear call history", "More options", "Call History"],
         "stack": [{"screen": "main", "args": {"tab": "recents"}}], "returns": True},
        {"has": ["Search", "Sort by", "Create new contact", "Call History"],
         "stack": [{"screen": "main"}]},
        {"has": ["Settings", "COLOR CUSTOMIZATION"],
         "stack": [{"screen": "main"}, {"screen": "settings"}]},
        {"has": ["Manage blocked numbers"],
         "stack": [{"screen": "main"}, {"screen": "settings"}, {"screen": "blocked"}]},
    ],
}  # fmt: skip

BUNDLED = (SMS_MESSENGER, CONTACTS, DIALER)


def bundled() -> list[dict[str, Any]]:
    """The bundled bindings (each checked against its app model when used)."""
    return [dict(b) for b in BUNDLED]


def read_binding_file(path: Path) -> dict[str, Any]:
    """A sidecar binding: JSON with ``package`` (the app it applies to) and the binding."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise BindingError(f"{path}: cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise BindingError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("package"), str):
        raise BindingError(f"{path}: a binding file names the `package` it applies to")
    parse_binding(data, str(path))  # checked now, so a bad file stops before anything is written
    return data
