"""What every pass may read: the app models known to the compilation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from tasklang import ir


@dataclass(frozen=True)
class Context:
    apps: Mapping[str, ir.AppModel] = field(default_factory=dict)

    def record_def(self, qualified: str | None) -> ir.RecordDef | None:
        """The record definition for `app.Record`."""
        if not qualified or "." not in qualified:
            return None
        app_name, rec = qualified.split(".", 1)
        app = self.apps.get(app_name)
        return app.record(rec) if app else None

    def collection_record(self, ref: ir.CollectionRef) -> ir.RecordDef | None:
        app = self.apps.get(ref.app)
        coll = app.collection(ref.name) if app else None
        return app.record(coll.record) if app and coll else None
