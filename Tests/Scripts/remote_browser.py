#!/usr/bin/env python3
"""Drives gstplay's web remote page in headless Chromium (Debian's chromium + chromium-driver,
Selenium from the test venv) for Tests/gstplayTests/RemoteBrowserTests.swift.

  remote_browser.py URL OUTDIR   (URL: http://127.0.0.1:PORT/#token=...)

Steps, each printed as one JSON line on stdout as it is done:
  desktop (1280x800): page up and playing, screenshot, position text changes, screenshot,
  hovering the seek bar at 25 % loads a thumbnail preview;
  phone (375x667): screenshot; click pause; drag the seek bar from its start to its middle;
  mute; remove the queue's second item;
  no token: the page reports 401 and every control is disabled.

  remote_browser.py layout URL OUTDIR   (a video with no audio and no subtitle track)
  at 1280x800 and 375x667: hovering the seek bar at its start, middle and end shows the thumbnail
  preview; each step prints the preview's bounding rect and the viewport's size, and a screenshot
  is taken with the preview at the start; then the track selectors' visibility.

  remote_browser.py reconnect OUTDIR GSTPLAY ARGS...   (ARGS with a fixed --remote=PORT and a token file)
  starts gstplay --json ARGS, opens the page, stops gstplay (SIGTERM), sees the page say
  "reconnecting", starts gstplay again with the same ARGS and sees the page playing again.
"""
import json, subprocess, sys, time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def say(**fields):
    print(json.dumps(fields), flush=True)


def viewport(driver, width, height, mobile):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


def text(driver, element_id):
    return driver.find_element(By.ID, element_id).text


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--no-first-run", "--disable-extensions", "--disable-background-networking"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def start_player(command):
    """gstplay --json ARGS; returns the process and the URL it printed on stderr."""
    player = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in player.stderr:
        if "#token=" in line:
            return player, line[line.index("http://"):].strip()
    raise RuntimeError("gstplay printed no URL")


def reconnect(outdir, command):
    driver = browser()
    wait = WebDriverWait(driver, 20, poll_frequency=0.05)
    first, url = start_player(command)
    try:
        driver.get(url)
        wait.until(lambda d: text(d, "state") == "playing")
        first.terminate()
        first.wait(10)
        wait.until(lambda d: text(d, "state") == "reconnecting")
        say(step="lost")
        started = time.monotonic()
        second, again = start_player(command)
        try:
            wait.until(lambda d: text(d, "state") == "playing")
            say(step="reconnected", same_url=again == url, seconds=round(time.monotonic() - started, 2))
            driver.save_screenshot(f"{outdir}/reconnected.png")
        finally:
            second.terminate()
            second.wait(10)
    finally:
        if first.poll() is None:
            first.terminate()
        driver.quit()


def rect(driver, element_id):
    return driver.execute_script(
        "const r=document.getElementById(arguments[0]).getBoundingClientRect();"
        "return {top:r.top,left:r.left,bottom:r.bottom,right:r.right,width:r.width,height:r.height}", element_id)


def shown(driver, element_id):
    """Whether the element takes space on the page (not hidden, nor inside something hidden); None when missing."""
    return driver.execute_script("const e=document.getElementById(arguments[0]);return e?e.getClientRects().length>0:null", element_id)


def layout(url, outdir):
    driver = browser()
    wait = WebDriverWait(driver, 20, poll_frequency=0.05)
    try:
        for name, width, height, mobile in (("desktop", 1280, 800, False), ("phone", 375, 667, True)):
            viewport(driver, width, height, mobile)
            driver.get(url)
            wait.until(lambda d: text(d, "state") == "playing" and text(d, "duration") not in ("", "0:00"))
            seek = driver.find_element(By.ID, "seek")
            for place, offset in (("start", -seek.size["width"] // 2 + 1), ("middle", 0), ("end", seek.size["width"] // 2 - 1)):
                previous = text(driver, "previewtime") if place != "start" else None
                ActionChains(driver).move_to_element_with_offset(seek, offset, 0).perform()
                # The time follows the pointer at once; the first thumbnail must have arrived (the
                # end's may not exist: the last one stays, the same size).
                wait.until(lambda d: text(d, "previewtime") not in ("", previous) and d.execute_script(
                    "const i=document.getElementById('previewimg');return i.naturalWidth>0&&i.complete"))
                time.sleep(0.4)  # a newer thumbnail in place, one layout pass
                say(step="preview", viewport=name, place=place, rect=rect(driver, "preview"),
                    window={"width": driver.execute_script("return window.innerWidth"),
                            "height": driver.execute_script("return window.innerHeight")})
                if place == "start":
                    driver.save_screenshot(f"{outdir}/layout-{name}-preview.png")
            ActionChains(driver).move_to_element(driver.find_element(By.ID, "title")).perform()
        say(step="tracks", audio=shown(driver, "audio"), subtitle=shown(driver, "subtitle"), section=shown(driver, "tracks"))
        driver.save_screenshot(f"{outdir}/layout-phone.png")
    finally:
        driver.quit()


def main():
    if sys.argv[1] == "reconnect":
        return reconnect(sys.argv[2], sys.argv[3:4] + ["--json"] + sys.argv[4:])
    if sys.argv[1] == "layout":
        return layout(sys.argv[2], sys.argv[3])
    url, outdir = sys.argv[1], sys.argv[2]
    driver = browser()
    wait = WebDriverWait(driver, 20, poll_frequency=0.05)
    try:
        viewport(driver, 1280, 800, False)
        driver.get(url)
        wait.until(lambda d: text(d, "state") == "playing" and text(d, "position") not in ("", "0:00"))
        first = text(driver, "position")
        driver.save_screenshot(f"{outdir}/desktop-1.png")
        # The screenshot is slow under load: the text may have moved on while it was taken, so the
        # second one waits for a text newer than anything the first could show.
        shown = {first, text(driver, "position")}
        wait.until(lambda d: text(d, "position") not in shown)
        second = text(driver, "position")
        driver.save_screenshot(f"{outdir}/desktop-2.png")
        say(step="desktop", first=first, second=second, title=text(driver, "title"),
            queue=len(driver.find_elements(By.CSS_SELECTOR, "#queue li")))

        seek = driver.find_element(By.ID, "seek")
        ActionChains(driver).move_to_element_with_offset(seek, -seek.size["width"] // 4, 0).perform()
        wait.until(lambda d: d.execute_script("return document.getElementById('previewimg').naturalWidth") > 0)
        say(step="hover", preview_width=driver.execute_script("return document.getElementById('previewimg').naturalWidth"),
            preview_time=text(driver, "previewtime"))

        viewport(driver, 375, 667, True)
        time.sleep(0.3)  # one layout pass at the new size (no event tells it)
        driver.save_screenshot(f"{outdir}/phone.png")
        width = driver.execute_script("return document.documentElement.scrollWidth")
        say(step="phone", scroll_width=width)

        driver.find_element(By.ID, "playpause").click()
        wait.until(lambda d: text(d, "state") == "paused")
        say(step="paused")

        seek = driver.find_element(By.ID, "seek")
        size = seek.size
        ActionChains(driver).move_to_element_with_offset(seek, -size["width"] // 2 + 2, 0).click_and_hold() \
            .move_to_element(seek).release().perform()
        wait.until(lambda d: abs(int(seek.get_attribute("value")) - 500) <= 30)
        say(step="dragged", value=int(seek.get_attribute("value")))

        driver.find_element(By.ID, "mute").click()
        wait.until(lambda d: text(d, "mute") == "unmute")  # the player's volume event came back
        say(step="muted")
        driver.find_elements(By.CSS_SELECTOR, "#queue li button")[1].click()
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#queue li")) == 1)
        say(step="removed", title=text(driver, "title"))

        viewport(driver, 1280, 800, False)
        driver.get(url.split("#")[0])
        wait.until(lambda d: "401" in text(d, "notice"))
        disabled = driver.execute_script(
            "return [...document.querySelectorAll('button,select,input')].every(c => c.disabled)")
        driver.save_screenshot(f"{outdir}/no-token.png")
        say(step="no-token", notice=text(driver, "notice"), all_disabled=disabled)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
