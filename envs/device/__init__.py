"""Real Android devices through uiautomator2 and adb: the PhoneWorld contract on a phone."""
