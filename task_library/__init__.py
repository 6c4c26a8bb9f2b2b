"""The bundled task library: app models (apps/) and tasks (app/, mini_app/, cross_app/)."""
