# Tasks.org (org.tasks), the to-do app AndroidWorld installs. Tasks live in the app's Room
# database (`tasks` table: title, notes, dueDate, importance, completed); local lists in
# `caldav_lists`. The due date and the due time are one timestamp on the device; the backend
# splits it into `due` and `due_time` (null when the task has no time).
app tasks {
  package "org.tasks"
  label "Tasks"

  record Task {
    title: text
    notes: text = ""  # the "Description" field
    due: date?
    due_time: time?  # only with a due date
    priority: enum(high, medium, low, none) = "none"
    completed: bool = false
    completed_at: datetime?
    list: text = "Default list"  # the name of the list the task is in
    created: datetime = 2026-01-01T09:00
  }

  record TaskList {
    name: text key
  }

  collection tasks: Task
  collection lists: TaskList

  settings {
    show_completed: bool = false  # the list menu's "Show completed"
    sort: enum(due_date, priority, title, created) = "due_date"
  }

  probe tasks: sqlite "/data/data/org.tasks/databases/database" table "tasks" {
    title = "title",
    notes = "notes",
    due = "dueDate",
    priority = "importance",
    completed_at = "completed",
    created = "created",
  }
  probe lists: sqlite "/data/data/org.tasks/databases/database" table "caldav_lists" {
    name = "cdl_name",
  }
  probe show_completed: ui id "org.tasks:id/menu_show_completed"
}
