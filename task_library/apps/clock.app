# Google Clock (com.google.android.deskclock, as on Pixel phones and in SPA-Bench).
# Alarms are exposed by the app's own content provider; the settings, the stopwatch's state,
# the timers, the laps and the world clocks are entries of its default shared preferences.
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
  # Timers: the string set `timers_list` holds the timer ids (the app's own counter gives
  # them, in the order the timers were made), and entries `<prefix><id>` each timer's fields:
  # `timer_setup_timet_` the length it was set to (<long> milliseconds; "+1:00" changes the
  # remaining time, not this), `timer_state_` an <int> (1 running, 2 paused, 3 expired,
  # 4 reset; 5, a timer missed while the phone was off, is no state of the model: such a timer
  # leaves the timers unread), `timer_label_` a <string> (no entry: no label), and
  # `timer_time_left_` the milliseconds left when it last started or stopped. That is the
  # `remaining` time only while the timer is paused or reset (reset: its length); a running or
  # expired timer counts down from when it last started, by the phone's time since boot,
  # which no probe reads exactly, so such a timer is read without it (never guessed).
  # A remaining time that is no whole number of seconds (a timer paused mid-second) is not
  # read either.
  probe timers: prefs "/data/data/com.google.android.deskclock/shared_prefs/com.google.android.deskclock_preferences.xml"
    key "timers_list" set {
    length = "timer_setup_timet_{id} millis",
    label = "timer_label_{id} or default",
    state = "timer_state_{id} as running=1, paused=2, expired=3, reset=4",
    remaining = "timer_time_left_{id} millis while state is paused or reset",
  }
  # Laps: the <int> `sw_lap_num` counts them, and `sw_lap_time_<n>` (n from 1) is the
  # stopwatch's total at the end of lap n (<long> milliseconds); a lap's own time is the
  # difference from the lap before (from 0 for the first).
  probe laps: prefs "/data/data/com.google.android.deskclock/shared_prefs/com.google.android.deskclock_preferences.xml"
    key "sw_lap_num" numbered {
    number = "{id}",
    total = "sw_lap_time_{id} millis",
    lap_time = "sw_lap_time_{id} millis since previous",
  }
  # World clocks: the <int> `number_of_cities` counts them, and `city_id_<i>` (i from 0) names
  # each by its id in the app's list of cities (res/values/cities.xml of DeskClock: `C178` is
  # London). The maps carry the ids of the cities the city picker offers here, under the names
  # it shows them by; a city not among them (the phone lists some 350, "Delhi" and "São Paulo"
  # among them, which the picker here names otherwise) leaves the world clocks unread.
  probe world_clocks: prefs "/data/data/com.google.android.deskclock/shared_prefs/com.google.android.deskclock_preferences.xml"
    key "number_of_cities" indexed {
    city = "city_id_{id} as Amsterdam=C159, Anchorage=C29, Athens=C161, Auckland=C206, Bangkok=C106, Barcelona=C262, Beijing=C256, Berlin=C164, Buenos Aires=C36, Cairo=C7, Cape Town=C270, Chicago=C40, Denver=C44, Dubai=C111, Dublin=C171, Hong Kong=C115, Honolulu=C209, Istanbul=C175, Jakarta=C117, Jerusalem=C118, Johannesburg=C16, Kolkata=C108, Lagos=C21, Lisbon=C177, London=C178, Los Angeles=C67, Madrid=C180, Manila=C125, Mexico City=C73, Miami=C222, Moscow=C184, Mumbai=C257, Nairobi=C24, New York=C78, Oslo=C185, Paris=C186, Prague=C187, Reykjavik=C144, Rio de Janeiro=C272, Rome=C189, San Francisco=C228, Santiago=C282, Seattle=C232, Seoul=C133, Shanghai=C134, Singapore=C135, Stockholm=C195, Sydney=C154, Taipei=C136, Tokyo=C139, Toronto=C94, Vancouver=C95, Vienna=C198, Warsaw=C200, Zurich=C202",
    time_zone = "city_id_{id} as Europe/Amsterdam=C159, America/Anchorage=C29, Europe/Athens=C161, Pacific/Auckland=C206, Asia/Bangkok=C106, Europe/Madrid=C262, Asia/Shanghai=C256, Europe/Berlin=C164, America/Argentina/Buenos_Aires=C36, Africa/Cairo=C7, Africa/Johannesburg=C270, America/Chicago=C40, America/Denver=C44, Asia/Dubai=C111, Europe/Dublin=C171, Asia/Hong_Kong=C115, Pacific/Honolulu=C209, Europe/Istanbul=C175, Asia/Jakarta=C117, Asia/Jerusalem=C118, Africa/Johannesburg=C16, Asia/Kolkata=C108, Africa/Lagos=C21, Europe/Lisbon=C177, Europe/London=C178, America/Los_Angeles=C67, Europe/Madrid=C180, Asia/Manila=C125, America/Mexico_City=C73, America/New_York=C222, Europe/Moscow=C184, Asia/Kolkata=C257, Africa/Nairobi=C24, America/New_York=C78, Europe/Oslo=C185, Europe/Paris=C186, Europe/Prague=C187, Atlantic/Reykjavik=C144, America/Sao_Paulo=C272, Europe/Rome=C189, America/Los_Angeles=C228, America/Santiago=C282, America/Los_Angeles=C232, Asia/Seoul=C133, Asia/Shanghai=C134, Asia/Singapore=C135, Europe/Stockholm=C195, Australia/Sydney=C154, Asia/Taipei=C136, Asia/Tokyo=C139, America/Toronto=C94, America/Vancouver=C95, Europe/Vienna=C198, Europe/Warsaw=C200, Europe/Zurich=C202",
  }
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
