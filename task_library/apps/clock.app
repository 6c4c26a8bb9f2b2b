# Google Clock (com.google.android.deskclock, as on Pixel phones and in SPA-Bench).
# Alarms are exposed by the app's own content provider; the settings and the stopwatch's state
# are entries of its default shared preferences; timers, laps and world clocks only on screen.
app clock {
  package "com.google.android.deskclock"
  label "Clock"

  record Alarm {
    time: time  # hour and minutes, 24-hour
    label: text = ""
    enabled: bool = true
    repeat: list of enum(mon, tue, wed, thu, fri, sat, sun) = []
    vibrate: bool = true
    ringtone: text = "Default (Cesium)"
    delete_after_use: bool = false
  }

  record Timer {
    length: duration
    label: text = ""
    state: enum(reset, running, paused, expired) = "reset"
    remaining: duration?
  }

  record Lap {
    number: int key
    lap_time: duration
    total: duration
  }

  record WorldClock {
    city: text key  # as the city picker names it, e.g. "London"
    time_zone: text  # IANA zone, e.g. "Europe/London"
  }

  collection alarms: Alarm
  collection timers: Timer
  collection laps: Lap
  collection world_clocks: WorldClock

  settings {
    clock_style: enum(analog, digital) = "digital"
    automatic_home_clock: bool = true
    home_time_zone: text?
    silence_after: duration = 10m
    snooze_length: duration = 10m
    alarm_volume: int = 6
    gradually_increase_volume: bool = false
    volume_buttons: enum(snooze, dismiss, control_volume) = "control_volume"
    week_start: enum(saturday, sunday, monday) = "sunday"
    timer_vibrate: bool = false
    stopwatch_running: bool = false
  }

  # The provider stores hour and minutes in separate columns (`hour`, `minutes`); the probe
  # reads both and combines them into `time`.
  probe alarms: content "content://com.google.android.deskclock/alarms" {
    time = "hour,minutes",
    label = "label",
    enabled = "enabled",
    repeat = "daysofweek",
    vibrate = "vibrate",
    ringtone = "ringtone",
    delete_after_use = "delete_after_use",
  }
  probe timers: ui id "com.google.android.deskclock:id/timer_time_text" { remaining = "text" }
  probe laps: ui id "com.google.android.deskclock:id/lap_time" { lap_time = "text" }
  probe world_clocks: ui id "com.google.android.deskclock:id/city_name" { city = "text" }
  # Settings as the DeskClock settings screen writes them: list choices are <string> entries
  # (`clock_style` "analog" / "digital", minutes for `auto_silence` and `snooze_duration`,
  # `volume_button_setting` "0" to control the volume, "1" to snooze, "2" to dismiss,
  # `week_start` a java.util.Calendar day: 7 Saturday, 1 Sunday, 2 Monday); switches are
  # <boolean>; the alarm volume slider is an <int> step. The stopwatch keeps its state as an
  # <int> `sw_state` (0 reset, 1 running, 2 paused).
  probe clock_style: prefs "/data/data/com.google.android.deskclock/shared_prefs/com.google.android.deskclock_preferences.xml"
    key "clock_style"
  probe automatic_home_clock: prefs "/data/data/com.google.android.deskclock/shared_prefs/com.google.android.deskclock_preferences.xml"
    key "automatic_home_clock"
  probe home_time_zone: prefs "/data/data/com.google.android.deskclock/shared_prefs/com.google.android.deskclock_preferences.xml"
    key "home_time_zone"
  probe silence_after: prefs "/data/data/com.google.android.deskclock/shared_prefs/com.google.android.deskclock_preferences.xml"
    key "auto_silence" minutes
  probe snooze_length: prefs "/data/data/com.google.android.deskclock/shared_prefs/com.google.android.deskclock_preferences.xml"
    key "snooze_duration" minutes
  probe alarm_volume: prefs "/data/data/com.google.android.deskclock/shared_prefs/com.google.android.deskclock_preferences.xml"
    key "alarm_volume"
  probe gradually_increase_volume: prefs "/data/data/com.google.android.deskclock/shared_prefs/com.google.android.deskclock_preferences.xml"
    key "gradually_increase_volume"
  probe volume_buttons: prefs "/data/data/com.google.android.deskclock/shared_prefs/com.google.android.deskclock_preferences.xml"
    key "volume_button_setting" { snooze = "1", dismiss = "2", control_volume = "0" }
  probe week_start: prefs "/data/data/com.google.android.deskclock/shared_prefs/com.google.android.deskclock_preferences.xml"
    key "week_start" { saturday = "7", sunday = "1", monday = "2" }
  probe timer_vibrate: prefs "/data/data/com.google.android.deskclock/shared_prefs/com.google.android.deskclock_preferences.xml"
    key "timer_vibrate"
  probe stopwatch_running: prefs "/data/data/com.google.android.deskclock/shared_prefs/com.google.android.deskclock_preferences.xml"
    key "sw_state" { true = "1", false = "0", false = "2" }
}
