"""PhoneWorld: a fast, resettable mock phone with the observations and actions of a real one."""
