# Android system Settings (AOSP com.android.settings).
# Most of its state is system-wide and lives in Settings.System / Secure / Global, so the probes
# read those tables directly (Data Saver through its service). The Wi-Fi service keeps the
# saved networks, and says which one is connected; the networks only in range, and their
# signal bars, no shell command lists. The other lists (Bluetooth devices, per-app
# notifications) are read from the screen: their records include devices nearby that are
# not paired and device kinds.
app settings {
  package "com.android.settings"
  label "Settings"

  record WifiNetwork {
    ssid: text key
    security: enum(open, wep, wpa2, wpa3) = "wpa2"
    saved: bool = false
    connected: bool = false
    signal: int = 3  # bars, 0..4
  }

  record AppNotifications {
    app_name: text key  # as listed under Settings > Notifications > App settings
    package_name: text
    enabled: bool = true
    allowed_channels: list of text = []
  }

  record BluetoothDevice {
    name: text key
    kind: enum(headphones, speaker, watch, car, keyboard, phone, other) = "other"
    paired: bool = false
    connected: bool = false
  }

  collection wifi_networks: WifiNetwork
  collection app_notifications: AppNotifications
  collection bluetooth_devices: BluetoothDevice

  settings {
    wifi: bool = true
    bluetooth: bool = false
    airplane_mode: bool = false
    mobile_data: bool = true
    data_saver: bool = false
    location: bool = true
    brightness: int = 60  # percent, 0..100
    adaptive_brightness: bool = true
    dark_theme: bool = false
    screen_timeout: duration = 30s  # 15s 30s 1m 2m 5m 10m 30m on stock Android
    auto_rotate: bool = false
    font_size: enum(small, default, large, largest) = "default"
    do_not_disturb: bool = false
    ring_volume: int = 5  # 0..7 steps, as the volume panel shows
    media_volume: int = 8  # 0..15
    alarm_volume: int = 6  # 0..7
    vibrate_for_calls: bool = true
    battery_saver: bool = false
    notification_history: bool = false
    language: enum(en_US, en_GB, de_DE, fr_FR, es_ES, zh_CN, ja_JP) = "en_US"
    time_format_24h: bool = false
    auto_time_zone: bool = true
  }

  probe wifi: setting global "wifi_on"
  probe bluetooth: setting global "bluetooth_on"
  probe airplane_mode: setting global "airplane_mode_on"
  probe mobile_data: setting global "mobile_data"
  probe location: setting secure "location_mode"
  probe brightness: setting system "screen_brightness"  # 0..255 on the device
  probe adaptive_brightness: setting system "screen_brightness_mode"
  probe dark_theme: setting secure "ui_night_mode"  # 1 = off, 2 = on
  probe screen_timeout: setting system "screen_off_timeout"  # milliseconds
  probe auto_rotate: setting system "accelerometer_rotation"
  probe font_size: setting system "font_scale"
  probe do_not_disturb: setting global "zen_mode"
  probe ring_volume: setting system "volume_ring"
  probe media_volume: setting system "volume_music"
  probe alarm_volume: setting system "volume_alarm"
  probe vibrate_for_calls: setting system "vibrate_when_ringing"
  probe battery_saver: setting global "low_power"
  probe notification_history: setting secure "notification_history_enabled"
  probe language: setting system "system_locales"
  probe time_format_24h: setting system "time_12_24"
  probe auto_time_zone: setting global "auto_time_zone"
  # Data Saver has no settings key: the network policy service keeps it, and its shell command
  # reads and sets it (`cmd netpolicy get restrict-background`: "Restrict background status:
  # enabled" or "disabled").
  probe data_saver: setting netpolicy "restrict-background"
  # The lists change only on the pages that show them and their switches (a page is told by
  # an element it shows: a switch, a row, a page title, a dialog's button). Airplane mode
  # drops the connections too. A step taken on any other page leaves them as they were, so
  # an episode that never shows these pages proves them unchanged. Quick Settings (System
  # UI, not this app) turns them off as well: its Internet tile opens a dialog with the
  # Wi-Fi switch, and its Airplane mode tile shows that text.
  changes wifi_networks only on
    text "Wi-Fi",
    text "Airplane mode",
    text "Saved networks",
    text "Add network",
    text "Network details",
    text "Connect"
  # (a device row's gear: the Wi-Fi list's rows have one of the same id, on the page with the
  # Wi-Fi switch, where no device is listed)
  changes bluetooth_devices only on
    xpath "//node[@resource-id='com.android.settings:id/settings_button'][not(//node[@text='Wi-Fi'])]",
    text "Use Bluetooth",
    text "Pair new device",
    text "Pair",
    text "Device details",
    text "Forget device"
  # Bluetooth turned off, from airplane mode or Quick Settings, drops the devices' connections:
  # only from a tap on the Airplane mode row (its title or its switch: the row holds both; on
  # Network & internet, which lists it among other rows, no other tap does) or on a System UI
  # element that names Bluetooth (its tile).
  changes bluetooth_devices only by
    xpath "//node[@clickable='true' and .//node[@text='Airplane mode']]",
    xpath "//node[@package='com.android.systemui' and (contains(@text, 'Bluetooth') or contains(@content-desc, 'Bluetooth'))]",
    xpath "//node[@package='com.android.systemui' and (@text='Airplane mode' or @content-desc='Airplane mode')]"
  # A device is paired only from its "Pair with ...?" dialog (a device that asks to pair shows
  # the same one) and unpaired only from "Forget device?": turning Bluetooth off or on, and
  # airplane mode, keep the pairings. The phone hears of a device it has not paired only
  # while it scans (the list of available devices) or when that device asks to pair.
  changes bluetooth_devices.paired only by text "Pair", text "Forget device"
  adds bluetooth_devices only on
    text "Available devices",
    xpath "//node[starts-with(@text, 'Pair with ')]"
  # No step removes a network or a device: forgetting one leaves it listed, unsaved (or
  # unpaired), among those in range, and the lists keep what they show while the page is
  # left (PhoneWorld never takes one away)
  removes wifi_networks, bluetooth_devices nowhere
  changes app_notifications only on
    text "App notifications",
    text "App info",
    xpath "//node[starts-with(@text, 'All ') and contains(@text, ' notifications')]"
  # `cmd wifi list-networks` lists the saved networks (a network in range that is not saved
  # is no record of the service: every network it does not list is unsaved, and not
  # connected), `cmd wifi status` the one connected
  probe wifi_networks: service "wifi" {
    ssid = "ssid",
    security = "security",
    saved = "saved",
    connected = "connected",
  }
  # `dumpsys bluetooth_manager` lists the bonded devices while Bluetooth is on (a device only
  # in range is no record of the service: every device it does not list is not paired); with
  # Bluetooth off it lists none, and the devices are not read
  probe bluetooth_devices: service "bluetooth_manager" { name = "name", paired = "paired" }
  probe app_notifications: ui id "com.android.settings:id/app_name" { app_name = "text" }
}
