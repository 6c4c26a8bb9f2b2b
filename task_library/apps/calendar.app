# Simple Calendar Pro (com.simplemobiletools.calendar.pro), the Simple Mobile Tools calendar
# AndroidWorld uses. Events and event types live in the app's own database (events.db, times
# in epoch seconds); its options in its shared preferences (shared_prefs/Prefs.xml).
app calendar {
  package "com.simplemobiletools.calendar.pro"
  label "Calendar"

  record Event {
    title: text
    start: datetime
    end: datetime
    all_day: bool = false
    location: text = ""
    description: text = ""
    reminders: list of int = []  # minutes before the start (0: at start), at most three
    repeat: enum(none, daily, weekly, monthly, yearly) = "none"
    event_type: text = "Regular event"  # EventType.title, or the built-in "Regular event"
  }

  record EventType {
    title: text key
    color: text = "#FF9800"
  }

  collection events: Event
  collection event_types: EventType  # besides the built-in "Regular event"

  settings {
    view: enum(day, week, month, year, list) = "month"
    use_24h: bool = false
    start_week_on_sunday: bool = true
    vibrate: bool = false
    default_reminder: int = 10  # minutes; -1: no reminder
    show_week_numbers: bool = false
    show_grid: bool = false
    replace_description: bool = false  # show the location instead of the description
    snooze_minutes: int = 10
    font_size: enum(small, medium, large, extra_large) = "medium"
    theme: enum(light, dark, black_white, custom) = "dark"
  }

  # `all_day` is bit 1 of the event's `flags` column; times are Unix seconds, the repetition
  # seconds (86400 a day ... 31536000 a year), the reminders one column each (-1 unused), the
  # built-in "Regular event" type id 1 (envs/device/codec.py: STORE_COLUMNS).
  probe events: sqlite "/data/data/com.simplemobiletools.calendar.pro/databases/events.db" table "events" {
    title = "title",
    start = "start_ts",
    end = "end_ts",
    all_day = "flags",
    location = "location",
    description = "description",
    reminders = "reminder_1_minutes,reminder_2_minutes,reminder_3_minutes",
    repeat = "repeat_interval",
    event_type = "event_type",
  }
  probe event_types: sqlite "/data/data/com.simplemobiletools.calendar.pro/databases/events.db" table "event_types" {
    title = "title",
    color = "color",
  }
  # Options are entries of Prefs.xml, under the keys of the app's Config (calendar keys) and of
  # Simple Commons' BaseConfig (the shared ones): `view` is an <int> (MONTHLY_VIEW 1, YEARLY_VIEW
  # 2, EVENTS_LIST_VIEW 3, WEEKLY_VIEW 4, DAILY_VIEW 5), `font_size` an <int> (FONT_SIZE_SMALL 0
  # .. FONT_SIZE_EXTRA_LARGE 3), reminders and snooze <int> minutes (REMINDER_OFF -1). The theme
  # is the app's `background_color` (an ARGB <int>): white (-1) for the light theme, dark grey
  # (0xFF424242, older versions 0xFF2D2D2D) for the dark one, black for black & white, any
  # other color a custom theme.
  probe view: prefs "/data/data/com.simplemobiletools.calendar.pro/shared_prefs/Prefs.xml"
    key "view" { month = "1", year = "2", list = "3", week = "4", day = "5" }
  probe use_24h: prefs "/data/data/com.simplemobiletools.calendar.pro/shared_prefs/Prefs.xml"
    key "use_24_hour_format"
  probe start_week_on_sunday: prefs "/data/data/com.simplemobiletools.calendar.pro/shared_prefs/Prefs.xml"
    key "sunday_first"
  probe vibrate: prefs "/data/data/com.simplemobiletools.calendar.pro/shared_prefs/Prefs.xml"
    key "vibrate"
  probe default_reminder: prefs "/data/data/com.simplemobiletools.calendar.pro/shared_prefs/Prefs.xml"
    key "default_reminder_1"
  probe show_week_numbers: prefs "/data/data/com.simplemobiletools.calendar.pro/shared_prefs/Prefs.xml"
    key "week_numbers"
  probe show_grid: prefs "/data/data/com.simplemobiletools.calendar.pro/shared_prefs/Prefs.xml"
    key "show_grid"
  probe replace_description: prefs "/data/data/com.simplemobiletools.calendar.pro/shared_prefs/Prefs.xml"
    key "replace_description"
  probe snooze_minutes: prefs "/data/data/com.simplemobiletools.calendar.pro/shared_prefs/Prefs.xml"
    key "snooze_delay"
  probe font_size: prefs "/data/data/com.simplemobiletools.calendar.pro/shared_prefs/Prefs.xml"
    key "font_size" { small = "0", medium = "1", large = "2", extra_large = "3" }
  probe theme: prefs "/data/data/com.simplemobiletools.calendar.pro/shared_prefs/Prefs.xml"
    key "background_color" {
    light = "-1",
    dark = "-12434878",
    dark = "-13816531",
    black_white = "-16777216",
    custom = "-16746133",
    custom = "*",
  }
}
