"""Value generators for parameters (`who: person_name`): small, fixed word lists.

Lists are part of the source so that a seed gives the same values on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable

FIRST = (
    "Ada", "Amara", "Ben", "Carla", "Chen", "Dana", "Diego", "Elena", "Farah", "Gabriel",
    "Hana", "Ivan", "Jonas", "Kira", "Liam", "Maya", "Mateo", "Nadia", "Omar", "Priya",
    "Quinn", "Rosa", "Sami", "Tara", "Umar", "Vera", "Wei", "Yara", "Zoe", "Noah",
)  # fmt: skip
LAST = (
    "Park", "Okafor", "Schmidt", "Rossi", "Nguyen", "Silva", "Kowalski", "Haddad", "Tanaka",
    "Moreau", "Jensen", "Costa", "Ivanova", "Mendes", "Larsen", "Novak", "Sato", "Brennan",
    "Fischer", "Lindqvist", "Osei", "Petrov", "Quispe", "Romero", "Varga", "Weber",
)  # fmt: skip
STREETS = (
    "Main St", "Oak Avenue", "Harbor Road", "Maple Lane", "Station Street", "Hill Crescent",
    "River Walk", "Market Square", "Elm Court", "Park Row", "Lake View Drive", "Mill Lane",
)  # fmt: skip
CITIES = (
    "Springfield", "Riverton", "Lakewood", "Fairview", "Bridgeport", "Greenville", "Ashford",
    "Milton", "Oakridge", "Westbrook", "Kingsport", "Clearwater",
)  # fmt: skip
COMPANIES = (
    "Northwind Labs", "Bluefin Logistics", "Cedar & Co", "Orbit Analytics", "Juniper Health",
    "Redwood Foods", "Silverline Media", "Atlas Robotics", "Harbor Bank", "Quill Publishing",
)  # fmt: skip
WORDS = (
    "lantern", "harbor", "meadow", "copper", "saffron", "glacier", "orchard", "ember",
    "willow", "summit", "velvet", "canyon", "pepper", "marble", "tundra", "cobalt",
)  # fmt: skip
SENTENCES = (
    "Running ten minutes late, start without me.",
    "Can you bring the charger tomorrow?",
    "The meeting moved to the small room on the third floor.",
    "Don't forget the tickets for Saturday.",
    "Dinner is at eight, I booked a table for four.",
    "Please send me the slides when you get a chance.",
    "The package arrived, it's at the front desk.",
    "Let's meet at the cafe next to the station.",
)  # fmt: skip


def _person(r: random.Random) -> str:
    return f"{r.choice(FIRST)} {r.choice(LAST)}"


def _phone(r: random.Random) -> str:
    return f"+1 {r.randint(201, 989)} 555 {r.randint(0, 9999):04d}"


def _email(r: random.Random) -> str:
    return f"{r.choice(FIRST).lower()}.{r.choice(LAST).lower()}@example.com"


def _street(r: random.Random) -> str:
    return f"{r.randint(1, 250)} {r.choice(STREETS)}, {r.choice(CITIES)}"


def _free_text(r: random.Random) -> str:
    return " ".join(r.choice(WORDS) for _ in range(r.randint(3, 7))).capitalize() + "."


GENERATORS: dict[str, Callable[[random.Random], str]] = {
    "person_name": _person,
    "first_name": lambda r: r.choice(FIRST),
    "last_name": lambda r: r.choice(LAST),
    "phone_number": _phone,
    "email_address": _email,
    "street_address": _street,
    "city": lambda r: r.choice(CITIES),
    "company_name": lambda r: r.choice(COMPANIES),
    "word": lambda r: r.choice(WORDS),
    "sentence": lambda r: r.choice(SENTENCES),
    "free_text": _free_text,
}


# ---------------------------------------------------------------- word lists for noise records
# Used by tasklang.noise to fill generated records. Like the lists above they are part of the
# source, so that a seed gives the same world on every machine. The generator lists above stay
# as they are (parameter values of existing seeds must not change); these are larger.
MORE_FIRST = (
    "Aaron", "Aisha", "Alba", "Andrei", "Anika", "Arjun", "Astrid", "Beatriz", "Bilal", "Bruno",
    "Camila", "Chloe", "Daniel", "Dmitri", "Elif", "Emeka", "Emma", "Felix", "Freya", "Grace",
    "Hugo", "Ines", "Isaac", "Jamal", "Jin", "Julia", "Kai", "Karim", "Leila", "Lucas", "Mei",
    "Mila", "Nina", "Oliver", "Olga", "Pablo", "Rahul", "Ruth", "Sofia", "Sven", "Theo",
    "Valentina", "Yusuf", "Zara", "Hannah", "Marcus", "Tomas", "Lena", "Victor", "Iris",
)  # fmt: skip
MORE_LAST = (
    "Abbott", "Ahmed", "Alvarez", "Bauer", "Becker", "Chowdhury", "Dubois", "Eriksen", "Ferreira",
    "Garcia", "Gupta", "Hansen", "Hoffmann", "Ito", "Kim", "Kumar", "Laurent", "Lopez", "Martin",
    "Meyer", "Mori", "Nakamura", "Nilsen", "Obi", "Patel", "Reyes", "Rahman", "Santos", "Shah",
    "Singh", "Takahashi", "Torres", "Wagner", "Walsh", "Yilmaz", "Zhang", "Li", "Wang", "Chen",
    "Murphy", "Kelly", "Bell", "Diaz", "Hughes",
)  # fmt: skip
ALL_FIRST = (*FIRST, *MORE_FIRST)
ALL_LAST = (*LAST, *MORE_LAST)
MORE_COMPANIES = (
    "Brightpath Consulting", "Copperleaf Studio", "Evergreen Insurance", "Foxglove Design",
    "Granite Construction", "Helix Biotech", "Ironbridge Capital", "Keystone Legal",
    "Lumen Energy", "Maple Street Dental", "Nimbus Cloud", "Pinecrest School", "Riverbend Clinic",
    "Solstice Travel", "Tidewater Shipping", "Vantage Realty",
)  # fmt: skip
ALL_COMPANIES = (*COMPANIES, *MORE_COMPANIES)
JOB_TITLES = (
    "Product Manager", "Software Engineer", "Account Executive", "Nurse", "Teacher",
    "Data Analyst", "Office Manager", "Architect", "Accountant", "Marketing Lead", "Designer",
    "Sales Associate", "Project Coordinator", "Pharmacist", "HR Partner", "Consultant",
)  # fmt: skip
REGIONS = (
    "Shanghai", "Beijing", "Guangdong Shenzhen", "Zhejiang Hangzhou", "Sichuan Chengdu",
    "Jiangsu Nanjing", "Hubei Wuhan", "Fujian Xiamen",
)  # fmt: skip
CITY_ZONES = (
    ("London", "Europe/London"), ("Paris", "Europe/Paris"), ("Berlin", "Europe/Berlin"),
    ("New York", "America/New_York"), ("Los Angeles", "America/Los_Angeles"),
    ("Chicago", "America/Chicago"), ("Tokyo", "Asia/Tokyo"), ("Shanghai", "Asia/Shanghai"),
    ("Singapore", "Asia/Singapore"), ("Sydney", "Australia/Sydney"), ("Dubai", "Asia/Dubai"),
    ("Sao Paulo", "America/Sao_Paulo"), ("Mumbai", "Asia/Kolkata"), ("Madrid", "Europe/Madrid"),
    ("Toronto", "America/Toronto"), ("Seoul", "Asia/Seoul"), ("Istanbul", "Europe/Istanbul"),
    ("Mexico City", "America/Mexico_City"), ("Cairo", "Africa/Cairo"), ("Auckland", "Pacific/Auckland"),
)  # fmt: skip
GROUP_NAMES = (
    "Book club", "Climbing crew", "Neighbours", "Project Atlas", "Family", "School parents",
    "Running club", "Band", "Housemates", "Volunteers", "Board games", "Old colleagues",
)  # fmt: skip
PLACE_WORDS = (
    "Golden", "Blue", "Little", "Corner", "Harbor", "Olive", "Maple", "Copper", "Sunset",
    "Garden", "Riverside", "Union", "Lucky", "Old Town", "Cedar", "Marina", "North Star",
    "Juniper", "Mission", "Hillside",
)  # fmt: skip
PLACE_SUFFIXES: dict[str, tuple[str, ...]] = {
    "restaurant": ("Kitchen", "Bistro", "Trattoria", "Grill", "Noodle House", "Taqueria", "Diner"),
    "cafe": ("Cafe", "Coffee", "Espresso Bar", "Roasters", "Tea House", "Bakery & Cafe"),
    "bar": ("Tavern", "Taproom", "Wine Bar", "Pub", "Cocktail Lounge", "Brewery"),
    "hotel": ("Hotel", "Inn", "Suites", "Lodge", "Guesthouse"),
    "gas_station": ("Fuel", "Gas", "Service Station"),
    "museum": ("Museum", "Gallery", "Heritage Center", "Science Museum"),
    "park": ("Park", "Gardens", "Commons", "Green", "Nature Reserve"),
    "pharmacy": ("Pharmacy", "Drugstore", "Apothecary"),
    "supermarket": ("Market", "Grocers", "Foods", "Supermarket"),
    "hospital": ("Hospital", "Medical Center", "Clinic"),
    "other": ("Studio", "Books", "Cinema", "Laundromat", "Hardware", "Florist", "Barbershop"),
}  # fmt: skip
BUSINESS_CATEGORIES = (
    "Hair Salons", "Pizza", "Coffee & Tea", "Sushi Bars", "Nail Salons", "Bakeries",
    "Auto Repair", "Dentists", "Gyms", "Thai", "Burgers", "Florists", "Pet Groomers", "Barbers",
)  # fmt: skip
FILE_STEMS: dict[str, tuple[str, ...]] = {  # a stem with a dot keeps its own extension
    "document": ("invoice_0425.pdf", "meeting_notes.docx", "tax_return_2025.pdf", "resume.pdf",
                 "receipt_hardware_store.pdf", "project_plan.xlsx", "insurance_policy.pdf",
                 "recipes.txt", "bank_statement_april.pdf", "reading_list.txt", "user_manual.pdf",
                 "rental_contract_signed.pdf", "budget_2026.xlsx", "quarterly_review.pptx",
                 "cover_letter.docx", "packing_list.txt"),
    "image": ("IMG_20260411_183204", "IMG_20260502_091512", "Screenshot_20260510-142233",
              "PXL_20260420_121804", "beach_sunset", "whiteboard", "passport_scan", "cat"),
    "audio": ("voice_memo_014", "podcast_episode_88", "lecture_recording", "ringtone_mix",
              "interview_clip", "song_demo"),
    "video": ("VID_20260408_170233", "birthday_party", "tutorial_part2", "drone_flight",
              "screen_recording_0512"),
    "archive": ("photos_backup", "project_source", "fonts", "old_documents", "logs_april"),
    "apk": ("app-release", "fdroid", "signal-website-universal-release", "game_installer"),
    "other": ("calendar.ics", "contacts_export.vcf", "settings_backup.json", "expenses.csv",
              "playlist.m3u", "boarding_pass.pkpass"),
}  # fmt: skip
FILE_EXTENSIONS: dict[str, tuple[str, ...]] = {
    "document": (".pdf", ".docx", ".txt", ".xlsx", ".pptx", ".odt"),
    "image": (".jpg", ".png", ".jpeg", ".webp"),
    "audio": (".mp3", ".m4a", ".wav", ".ogg"),
    "video": (".mp4", ".mkv", ".webm"),
    "archive": (".zip", ".tar.gz", ".7z"),
    "apk": (".apk",),
    "other": (".ics", ".vcf", ".json", ".csv", ".m3u"),
}  # fmt: skip
FILE_FOLDERS: dict[str, tuple[str, ...]] = {
    "document": ("Download", "Documents"),
    "image": ("DCIM", "Pictures", "Download"),
    "audio": ("Music", "Recordings", "Download"),
    "video": ("Movies", "DCIM"),
    "archive": ("Download", "Documents"),
    "apk": ("Download",),
    "other": ("Download", "Documents"),
}  # fmt: skip
FOLDERS = ("Download", "Documents", "DCIM", "Pictures", "Music", "Movies", "Recordings", "Alarms")
FILE_SIZES: dict[str, tuple[int, int]] = {  # bytes, low and high
    "document": (12_000, 6_000_000),
    "image": (300_000, 9_000_000),
    "audio": (500_000, 40_000_000),
    "video": (5_000_000, 900_000_000),
    "archive": (100_000, 300_000_000),
    "apk": (2_000_000, 150_000_000),
    "other": (1_000, 500_000),
}  # fmt: skip
DEVICE_NAMES: dict[str, tuple[str, ...]] = {
    "headphones": ("WH-1000XM5", "AirPods Pro", "Bose QC45", "Galaxy Buds2", "Jabra Elite 75t"),
    "speaker": ("JBL Flip 6", "UE BOOM 3", "Sonos Roam", "Anker Soundcore 2"),
    "watch": ("Galaxy Watch6", "Pixel Watch 2", "Fitbit Versa 4", "Garmin Venu 3"),
    "car": ("My Car", "VW BT 4512", "Toyota Audio", "CAR MULTIMEDIA"),
    "keyboard": ("Logitech K380", "MX Keys", "Keychron K2"),
    "phone": ("Galaxy S23", "Pixel 8", "Mom's phone", "iPhone"),
    "other": ("Mi Band 8", "Tile Mate", "Printer-BT", "Shower Speaker"),
}  # fmt: skip
SSIDS = (
    "NETGEAR42", "TP-Link_7F21", "Cafe-Guest", "Linksys00481", "xfinitywifi", "Vodafone-A3C9",
    "FRITZ!Box 7590 QX", "eduroam", "Airport_Free_WiFi", "Hotel-Lobby", "DIRECT-5B-HP Printer",
    "Pixel_4821", "Office-5G", "Library Public", "Starbucks WiFi", "BTHub6-K2QH",
)  # fmt: skip
APPS = (
    ("Gmail", "com.google.android.gm"), ("WhatsApp", "com.whatsapp"),
    ("Calendar", "com.google.android.calendar"), ("Spotify", "com.spotify.music"),
    ("Instagram", "com.instagram.android"), ("Uber", "com.ubercab"),
    ("Slack", "com.Slack"), ("Duolingo", "com.duolingo"), ("Photos", "com.google.android.apps.photos"),
    ("Amazon Shopping", "com.amazon.mshop.android.shopping"), ("Strava", "com.strava"),
    ("Telegram", "org.telegram.messenger"), ("YouTube", "com.google.android.youtube"),
)  # fmt: skip
CHANNELS = ("Messages", "Reminders", "Promotions", "Account alerts", "Updates", "Calls", "Offers")
MINI_PROGRAMS = (
    "Didi Rides", "Meituan", "JD Shopping", "Pinduoduo", "Ctrip Travel", "Tencent Video",
    "Bike Share", "Metro QR", "Luckin Coffee", "KFC", "Ele.me", "Health Code",
)  # fmt: skip
ALARM_LABELS = (
    "Wake up", "Gym", "Meds", "Standup", "Pick up kids", "Laundry", "Yoga", "Bus", "Take out bins",
    "Call mom", "Water plants", "Lunch", "Piano practice",
)  # fmt: skip
TIMER_LABELS = ("Pasta", "Tea", "Eggs", "Laundry", "Focus", "Oven", "Nap", "Plank", "Rice")
RINGTONES = ("Default (Cesium)", "Argon", "Helium", "Neon", "Osmium", "Timer", "Bright Morning")
WEB_SITES = (
    ("https://en.wikipedia.org/wiki/Lighthouse", "Lighthouse - Wikipedia"),
    ("https://www.bbc.com/news", "BBC News - Home"),
    ("https://www.allrecipes.com/recipe/23600/worlds-best-lasagna/", "World's Best Lasagna Recipe"),
    ("https://github.com/explore", "Explore GitHub"),
    ("https://www.weather.com/weather/today", "Today's Weather Forecast"),
    ("https://www.nytimes.com/section/technology", "Technology - The New York Times"),
    ("https://maps.google.com/", "Google Maps"),
    ("https://www.imdb.com/chart/top/", "IMDb Top 250 Movies"),
    ("https://www.python.org/downloads/", "Download Python | Python.org"),
    ("https://www.booking.com/", "Booking.com | Hotels, homes and more"),
    ("https://www.reddit.com/r/android/", "r/Android - Reddit"),
    ("https://www.theverge.com/", "The Verge"),
)  # fmt: skip
BOOKMARK_FOLDERS = ("Mobile bookmarks", "Bookmarks bar", "Reading list", "Recipes", "Travel")
MENU_ITEMS: dict[str, tuple[str, ...]] = {
    "coffee": ("Americano", "Latte", "Flat White", "Cappuccino", "Mocha", "Cold Brew", "Espresso",
               "Coconut Latte", "Caramel Macchiato", "Oat Latte"),
    "tea": ("Matcha Latte", "Jasmine Green Tea", "Earl Grey", "Chai Latte", "Oolong Milk Tea"),
    "non_coffee": ("Hot Chocolate", "Orange Juice", "Strawberry Smoothie", "Sparkling Water"),
    "food": ("Croissant", "Blueberry Muffin", "Ham & Cheese Sandwich", "Cinnamon Roll", "Bagel"),
    "seasonal": ("Pumpkin Spice Latte", "Cherry Blossom Latte", "Osmanthus Latte",
                 "Peppermint Mocha"),
}  # fmt: skip
STORE_NAMES = (
    "Riverside", "Central Plaza", "Airport T2", "People's Square", "Jing'an Temple", "Xintiandi",
    "Lujiazui", "University Town", "Railway Station", "Science Park", "West Lake", "Old Town",
)  # fmt: skip
COUPON_TITLES = (
    "{off} off any large drink", "{off} off your next order", "{off} off orders over {min}",
    "{off} off breakfast combos", "{off} off seasonal drinks",
)  # fmt: skip
SEARCH_QUERIES = (
    "coffee near me", "pharmacy open now", "gas station", "sushi", "parking", "hardware store",
    "museum", "atm", "thai food", "bike shop", "post office", "farmers market", "vegan brunch",
)  # fmt: skip
TRANSFER_NOTES = ("Dinner", "Taxi", "Rent share", "Movie tickets", "Groceries", "Gift", "Lunch", "")
MESSAGE_BODIES = (
    *SENTENCES,
    "Happy birthday! Hope you have a great day.",
    "Your verification code is 482913.",
    "Thanks again for yesterday!",
    "Are you free for a call this afternoon?",
    "I'll be there in 15 minutes.",
    "Did you see the game last night?",
    "Reminder: dentist appointment tomorrow at 10.",
    "Can you pick up some milk on the way home?",
    "The photos from the trip are up.",
    "Ok, sounds good.",
)  # fmt: skip
CONTACT_NOTES = (
    "Met at the design conference.", "Neighbour, flat 4B.", "Dog sitter, weekends only.",
    "Allergic to peanuts.", "Plumber, very reliable.", "Kids go to the same school.",
    "Prefers texts to calls.", "Old friend from university.", "Landlord.", "Tennis on Thursdays.",
)  # fmt: skip
OPENING_HOURS: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {  # opens, closes (hours)
    "restaurant": ((11, 12), (21, 23)),
    "cafe": ((6, 8), (15, 19)),
    "bar": ((16, 18), (23, 23)),
    "hotel": ((0, 0), (23, 23)),
    "museum": ((9, 10), (17, 19)),
    "park": ((6, 8), (20, 22)),
    "pharmacy": ((8, 9), (19, 22)),
    "supermarket": ((7, 8), (21, 23)),
}  # fmt: skip
BUSINESS_SUFFIXES: dict[str, tuple[str, ...]] = {  # names for the BUSINESS_CATEGORIES
    "Hair Salons": ("Hair Studio", "Salon", "Cuts & Color"),
    "Pizza": ("Pizzeria", "Pizza Co.", "Slice"),
    "Coffee & Tea": ("Coffee", "Tea Room", "Roasters"),
    "Sushi Bars": ("Sushi", "Sushi Bar", "Omakase"),
    "Nail Salons": ("Nails", "Nail Bar", "Nail Spa"),
    "Bakeries": ("Bakery", "Bakehouse", "Patisserie"),
    "Auto Repair": ("Auto Repair", "Garage", "Auto Care"),
    "Dentists": ("Dental", "Family Dentistry", "Smile Studio"),
    "Gyms": ("Fitness", "Gym", "Athletic Club"),
    "Thai": ("Thai Kitchen", "Thai Bistro", "Thai House"),
    "Burgers": ("Burgers", "Burger Bar", "Grill"),
    "Florists": ("Florist", "Flowers", "Blooms"),
    "Pet Groomers": ("Pet Spa", "Grooming", "Paws"),
    "Barbers": ("Barbershop", "Barbers", "Cuts"),
}  # fmt: skip
SAVED_NOTES = (
    "Try the brunch.", "Closed on Mondays.", "Book ahead on weekends.", "Recommended by Ada.",
    "Good for a rainy day.", "Cash only.", "Ask for a table by the window.",
)  # fmt: skip
