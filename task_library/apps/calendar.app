# Simple Calendar Pro (com.simplemobiletools.calendar.pro), the Simple Mobile Tools calendar
# AndroidWorld uses. Events and event types live in the app's own database (events.db, times
# in epoch seconds); its options in shared preferences, read back from its settings screen.
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

  # `all_day` is bit 1 of the event's `flags` column.
  probe events: sqlite "/data/data/com.simplemobiletools.calendar.pro/databases/events.db" table "events" {
    title = "title",
    start = "start_ts",
    end = "end_ts",
    all_day = "flags",
    location = "location",
    description = "description",
    reminders = "reminder_1_minutes",
    repeat = "repeat_interval",
    event_type = "event_type",
  }
  probe event_types: sqlite "/data/data/com.simplemobiletools.calendar.pro/databases/events.db" table "event_types" {
    title = "title",
    color = "color",
  }
  probe use_24h: ui text "Use 24-hour time format" class "android.widget.CheckBox"
  probe start_week_on_sunday: ui text "Start week on Sunday" class "android.widget.CheckBox"
  probe view: ui id "com.simplemobiletools.calendar.pro:id/top_value"
}
