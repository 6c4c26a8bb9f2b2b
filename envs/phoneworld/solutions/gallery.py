"""Reference solutions of the Simple Gallery tasks (and the Camera -> Gallery ones)."""

from __future__ import annotations

from tasklang.envs.phoneworld.solutions.base import Driver, reference


@reference("gallery.favorite_screenshot")
def favorite_screenshot(d: Driver) -> None:
    name = d.params["shot"]["name"]
    d.open("Gallery")
    d.tap(text="Screenshots")
    d.act({"action_type": "click", "index": d.scroll_to(text=name)})
    d.tap(desc="Add to favorites")
    d.done()


@reference("gallery.rename_image")
def rename_image(d: Driver) -> None:
    d.open("Gallery")
    d.tap(text="Trips")
    d.tap(text=d.params["pic"]["name"])
    d.tap(desc="More options")
    d.tap(text="Rename")
    stem = str(d.params["new_name"]).rsplit(".", 1)[0]
    d.type(stem, rid="rename_item_name")
    d.tap(text="OK")
    d.done()


@reference("gallery.restore_from_bin")
def restore_from_bin(d: Driver) -> None:
    d.open("Gallery")
    d.act({"action_type": "click", "index": d.scroll_to(text="Recycle Bin")})
    d.act({"action_type": "click", "index": d.scroll_to(text=d.params["pic"]["name"])})
    d.tap(desc="Restore")
    d.done()


@reference("cross.gallery_delete_day_photos")
def delete_day_photos(d: Driver) -> None:
    day = str(d.params["day"]).replace("-", "")[:8]
    d.open("Gallery")
    d.tap(text="Camera")
    d.type(f"IMG_{day}", rid="top_toolbar_search")  # photos are IMG_yyyyMMdd_HHmmss.jpg
    d.enter()
    first = d.texts(rid="medium_name")[0]
    d.long_press(text=first)
    d.tap(desc="More options")
    d.tap(text="Select all")
    d.tap(desc="Delete")
    d.tap(text="Yes")
    d.done()


@reference("cross.camera_photo_favorite")
def camera_photo_favorite(d: Driver) -> None:
    n = int(d.params["shots"]["n"])
    d.open("Camera")
    if d.params["lens"] == "front":
        d.tap(rid="mode_options_toggle")
        d.tap(rid="camera_toggle_button")
    for _ in range(n):
        d.tap(rid="shutter_button")
    d.open("Gallery")
    d.tap(text="Camera")
    newest = d.texts(rid="medium_name")[:n]  # newest first
    if n == 1:
        d.tap(text=newest[0])
        d.tap(desc="Add to favorites")
    else:
        d.long_press(text=newest[0])  # starts the selection
        for name in newest[1:]:
            d.tap(text=name)
        d.tap(desc="More options")
        d.tap(text="Add to favorites")
    d.done()


@reference("cross.gallery_share_photo_wechat")
def share_photo_wechat(d: Driver) -> None:
    pic, pal = d.params["pic"], d.params["pal"]
    d.open("Gallery")
    d.tap(text="Family")
    d.tap(text=pic["name"])
    d.tap(desc="Share")
    d.tap(text="WeChat")
    d.type(pal["remark"], rid="search_input")
    d.tap(text=pal["remark"], rid="contact_name")
    d.tap(text="Send")
    d.done()
