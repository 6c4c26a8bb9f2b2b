"""Environments: PhoneWorld (mock phone) and real devices."""
