# Google Clock (com.google.android.deskclock, as on Pixel phones and in SPA-Bench).
# Alarms are exposed by the app's own content provider; timers, the stopwatch and world clocks
# only on screen.
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
  probe clock_style: ui text "Style" id "android:id/summary"
}
