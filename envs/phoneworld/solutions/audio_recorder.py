"""Reference solutions of the Audio Recorder tasks."""

from __future__ import annotations

from tasklang.envs.phoneworld.solutions.base import Driver, reference


@reference("androidworld.audio_recorder_record_audio")
def record_audio(d: Driver) -> None:
    d.open("Audio Recorder")
    d.tap(rid="btn_record")
    d.act({"action_type": "wait"})  # record a few seconds
    d.tap(rid="btn_record_stop")
    d.tap(text="Save")  # keep the proposed name
    d.done()
