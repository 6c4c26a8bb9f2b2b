# Tasks.org (org.tasks), the to-do app AndroidWorld installs. Tasks live in the app's Room
# database (`tasks` table: title, notes, dueDate, importance, completed, created); local lists
# in `caldav_lists`, and which list a task is in in `caldav_tasks` (`cd_task` the task's `_id`,
# `cd_calendar` the list's `cdl_uuid`). Times are epoch milliseconds; the due date and the due
# time are one timestamp (noon of the day without a time, the time with its seconds set to 1
# with one), split into `due` and `due_time`; `completed` is when the task was done (0 while it
# is not); `importance` is 0 high, 1 medium, 2 low, 3 none.
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

  # A task with no `caldav_tasks` row is in the default list.
  probe tasks: sqlite "/data/data/org.tasks/databases/database" table "tasks" {
    title = "title",
    notes = "notes",
    due = "dueDate",
    due_time = "dueDate",
    priority = "importance",
    completed = "completed",
    completed_at = "completed",
    list = "caldav_tasks(cd_task = _id).caldav_lists(cdl_uuid = cd_calendar).cdl_name",
    created = "created",
  }
  probe lists: sqlite "/data/data/org.tasks/databases/database" table "caldav_lists" {
    name = "cdl_name",
  }
  # The list options are entries of the app's default shared preferences: `show_completed_tasks`
  # a <boolean>, `sort_mode` an <int> (SORT_ALPHA 1, SORT_DUE 2, SORT_IMPORTANCE 3, SORT_CREATED
  # 5; the "smart" sort, 0, has no setting here and reads as an error).
  probe show_completed: prefs "/data/data/org.tasks/shared_prefs/org.tasks_preferences.xml"
    key "show_completed_tasks"
  probe sort: prefs "/data/data/org.tasks/shared_prefs/org.tasks_preferences.xml" key "sort_mode" {
    due_date = "2",
    priority = "3",
    title = "1",
    created = "5",
  }
}
